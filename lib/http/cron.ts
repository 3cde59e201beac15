import { timingSafeEqual } from 'node:crypto';
import { config } from '../core/config';
import { ApiError } from '../core/errors';
import { sampleOnce } from '../series/sampler';

// GET /api/cron/sample, for Vercel Cron: `Authorization: Bearer $CRON_SECRET` runs one sample.

export async function runCronSample(authorization: string | null) {
  const secret = config.cronSecret();
  if (!secret) throw new ApiError(503, 'Cron sampling is not configured: set CRON_SECRET');
  const expected = Buffer.from(`Bearer ${secret}`);
  const given = Buffer.from(authorization ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ApiError(401, 'Missing or wrong bearer token');
  return sampleOnce();
}
