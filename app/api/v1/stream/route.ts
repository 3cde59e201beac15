import { restRoute } from '@/lib/http/route';
import { streamResponse } from '@/lib/http/stream';
import { goldState } from '@/lib/prices/spot';

// Server-Sent Events: live prices pushed (decisions §21). Each stream ends before the platform's limit
// (STREAM_MAX_S, 280 s on Vercel) and EventSource reconnects; the function may run that long.
export const maxDuration = 300;

const route = restRoute({ state: goldState, get: streamResponse });

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = route;
