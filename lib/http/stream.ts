import { config } from '../core/config';
import { ApiError } from '../core/errors';
import { checkStreamCurrency } from '../prices/live';
import { StreamQuery } from '../schemas/stream';
import { parseQuery } from './query';
import { CORS_HEADERS } from './respond';
import { controllerSink, streamHub, type Opening } from './stream-hub';

// GET /api/v1/stream (decisions §21): the checks a JSON error can still answer (off, full, a bad currency
// or unit), then a text/event-stream whose bytes the instance's hub writes. Nothing on the way may hold
// the events back: `no-transform` keeps compression off it (here and at any proxy), `X-Accel-Buffering: no`
// keeps nginx-style proxies from buffering it, and `npm start`'s response cache passes it straight through.

/** Seconds a client turned away by the cap is asked to wait (spot's cache time: poll meanwhile). */
export const FULL_RETRY_AFTER_S = 30;

export const STREAM_HEADERS = {
  ...CORS_HEADERS,
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
  'X-Content-Type-Options': 'nosniff',
} as const;

export async function streamResponse(req: Request, url: URL): Promise<Response> {
  if (!config.stream.enabled()) throw new ApiError(503, 'The price stream is turned off on this server: poll /api/v1/spot instead');
  const query = parseQuery(StreamQuery, url);
  const hub = streamHub();
  // HEAD answers as GET would, without opening a stream.
  if (req.method === 'HEAD') {
    checkStreamCurrency(await hub.current(), query.currency);
    return new Response(null, { headers: STREAM_HEADERS });
  }
  if (!hub.reserve()) {
    throw new ApiError(
      503,
      'This server holds as many price streams as it takes: poll /api/v1/spot, or retry later',
      {},
      {
        'Retry-After': String(FULL_RETRY_AFTER_S),
      },
    );
  }
  let opening: Opening;
  try {
    const read = await hub.current();
    opening = await hub.opening(read, checkStreamCurrency(read, query.currency), query.unit);
  } catch (err) {
    hub.release();
    throw err;
  }
  // A reconnecting client's Last-Event-ID needs nothing more: only the latest price matters, and it comes first.
  let leave = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      leave = hub.join(opening, controllerSink(controller));
      if (req.signal.aborted) leave();
      else req.signal.addEventListener('abort', () => leave(), { once: true });
    },
    cancel() {
      leave();
    },
  });
  return new Response(body, { headers: STREAM_HEADERS });
}
