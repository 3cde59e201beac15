import { runCronSample } from '@/lib/http/cron';
import { intradayState } from '@/lib/series/intraday';
import { sendJson } from '@/lib/http/respond';
import { restRoute } from '@/lib/http/route';

const route = restRoute({
  state: intradayState,
  get: async (req) => {
    const samples = await runCronSample(req.headers.get('authorization'));
    return sendJson(req, { samples, data_state: await intradayState(), updated_at: new Date().toISOString() }, { cache: 'no-store' });
  },
});

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
