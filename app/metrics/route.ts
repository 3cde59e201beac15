import { metricsResponse } from '@/lib/http/metrics';

export const dynamic = 'force-dynamic';
export const GET = metricsResponse;
