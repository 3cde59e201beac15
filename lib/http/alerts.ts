import { z } from 'zod';
import { ALERTS_PER_TARGET, CREATIONS_PER_HOUR, LOOKUPS_BUSY_RETRY_S, newAlert, statusOf, targetUrl, type Alert, type Target } from '../alerts/model';
import { checkPushTarget, vapidKeys } from '../alerts/push';
import { alertIndex, liveOnTarget } from '../alerts/alert-index';
import { alertsEnabled } from '../alerts/config';
import { kick, outboxEvent } from '../alerts/deliver';
import { startAlerts } from '../alerts/evaluate';
import { hashToken, loadAlert, newId, newSecret, newToken, removeAlert, saveAlert, tokenMatches } from '../alerts/records';
import { checkTarget, LookupsBusy, RefusedTarget } from '../alerts/targets';
import { ApiError } from '../core/errors';
import { checkCurrency, fxInUse } from '../prices/spot';
import { peekServed } from '../prices/served-price';
import { AlertRequest, type AlertCreated, type AlertView, type PushKey } from '../schemas/alerts';
import type { DataState } from '../schemas/common';
import { toDataState } from '../sources/data-state';
import { feeds } from '../sources/feeds';
import { countRate, rateLimitHeaders, type RatePolicy } from '../store/rate-limit';
import { clientAddress, publicOrigin } from './public-origin.mjs';
import { CORS_HEADERS, send } from './respond';
import { errorResponder, MAX_QUERY_LENGTH, REFUSED_METHOD_HEADER } from './route';

// POST /api/v1/alerts and the manage URL /api/v1/alerts/{id}?token=… (decisions §28). The only REST paths
// that take another method than GET: the collection takes POST (JSON, at most 4 KB), an alert GET and DELETE.
// A wrong or missing token is the same 404 as an unknown id. `ALERTS=off` answers 503 on both.
// A creation counts against its client's limit before anything else is done for it (decisions §33): before its body
// is read, before any name is looked up, and whatever the answer (a refused one counts as much as one created). Its
// target's name is then looked up within a deadline, in one of a few slots the process has; with every slot taken the
// answer is 503 with Retry-After (the service is busy, the client did nothing wrong).

export const MAX_ALERT_BODY = 4096;
export const COLLECTION_ALLOW = 'POST, OPTIONS';
export const ALERT_ALLOW = 'GET, HEAD, DELETE, OPTIONS';

const CREATION_POLICY: RatePolicy = { name: 'alerts', limit: CREATIONS_PER_HOUR, windowS: 3600 };

type Handler = (req: Request) => Promise<Response>;

/** Gold's state (the alerts' errors and answers name the price they watch), without asking any upstream. */
async function state(): Promise<DataState> {
  return toDataState((await peekServed('gold')).reading);
}

const fail = errorResponder(state);

function methods(allow: string, handlers: Partial<Record<'GET' | 'POST' | 'DELETE', Handler>>) {
  const notAllowed: Handler = (req) =>
    fail(req, new ApiError(405, 'Method not allowed', {}, { Allow: allow, 'Access-Control-Allow-Methods': allow }));
  const guard =
    (h: Handler | undefined): Handler =>
    async (req) => {
      if (!h || req.headers.has(REFUSED_METHOD_HEADER)) return notAllowed(req);
      try {
        if (!alertsEnabled()) throw new ApiError(503, 'Price alerts are turned off on this deployment (ALERTS=off)');
        // As on every REST path: an oversized query string is refused before anything reads it.
        if (new URL(req.url).search.length > MAX_QUERY_LENGTH) throw new ApiError(414, `Query string longer than ${MAX_QUERY_LENGTH} characters`);
        startAlerts();
        return await h(req);
      } catch (err) {
        return fail(req, err);
      }
    };
  const OPTIONS: Handler = async (req) => {
    const requested = req.headers.get('access-control-request-headers');
    const headers: Record<string, string> = { ...CORS_HEADERS, 'Access-Control-Allow-Methods': allow, 'Cache-Control': 'public, max-age=86400' };
    if (requested) headers['Access-Control-Allow-Headers'] = requested;
    return new Response(null, { status: 204, headers });
  };
  return { GET: guard(handlers.GET), POST: guard(handlers.POST), DELETE: guard(handlers.DELETE), PUT: notAllowed, PATCH: notAllowed, OPTIONS };
}

async function readJson(req: Request): Promise<unknown> {
  if (Number(req.headers.get('content-length')) > MAX_ALERT_BODY) throw new ApiError(413, `Body larger than ${MAX_ALERT_BODY} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw new ApiError(400, 'The request body was not received whole');
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > MAX_ALERT_BODY) {
        await reader.cancel().catch(() => {});
        throw new ApiError(413, `Body larger than ${MAX_ALERT_BODY} bytes`);
      }
      chunks.push(chunk.value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError(400, 'The body must be a JSON object (Content-Type: application/json)');
  }
}

/** The first problem of an invalid request, in words, with the valid values where a list has them. */
function invalid(err: z.ZodError): ApiError {
  const issue = err.issues[0];
  const where = issue.path.join('.');
  const valid = issue.code === 'invalid_value' ? issue.values.map(String) : undefined;
  const text = issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : `${where ? `${where}: ` : ''}${issue.message}`;
  return new ApiError(400, `Invalid alert: ${text}`, valid ? { valid } : {});
}

async function create(req: Request): Promise<Response> {
  const rate = await countRate(CREATION_POLICY, clientAddress(req.headers));
  const limitHeaders = rateLimitHeaders(CREATION_POLICY, rate);
  if (!rate.allowed) {
    throw new ApiError(
      429,
      `Rate limit exceeded: ${CREATIONS_PER_HOUR} alerts created per hour per client. Retry after ${rate.reset} s.`,
      {},
      { 'Retry-After': String(rate.reset), ...limitHeaders },
    );
  }
  try {
    return await createCounted(req, limitHeaders);
  } catch (err) {
    // Every answer to a counted creation says what is left of the limit.
    if (err instanceof ApiError) throw new ApiError(err.status, err.message, err.extra, { ...limitHeaders, ...err.headers });
    throw err;
  }
}

/** The creation, once counted: the body, the alert's fields, the target (looked up), its limit, then the alert. */
async function createCounted(req: Request, limitHeaders: Record<string, string>): Promise<Response> {
  const parsed = AlertRequest.safeParse(await readJson(req));
  if (!parsed.success) throw invalid(parsed.error);
  const input = parsed.data;
  const currency = input.currency.toUpperCase();
  const now = Date.now();
  checkCurrency(currency, input.currency, fxInUse(await feeds.fx.read(), now).table);
  const target: Target = input.webhook
    ? { type: 'webhook', url: input.webhook.url }
    : { type: 'push', endpoint: input.push!.endpoint, keys: { p256dh: input.push!.keys.p256dh, auth: input.push!.keys.auth } };
  const url = targetUrl(target);
  try {
    if (target.type === 'webhook') await checkTarget(target.url);
    else await checkPushTarget(target);
  } catch (err) {
    if (err instanceof RefusedTarget) throw new ApiError(400, err.message);
    if (err instanceof LookupsBusy) {
      throw new ApiError(
        503,
        `Too many alert targets are being checked at once; retry in ${LOOKUPS_BUSY_RETRY_S} s`,
        {},
        {
          'Retry-After': String(LOOKUPS_BUSY_RETRY_S),
        },
      );
    }
    throw err;
  }
  const idx = await alertIndex(now);
  if (idx && liveOnTarget(idx, url, now) >= ALERTS_PER_TARGET) {
    throw new ApiError(429, `This target already holds ${ALERTS_PER_TARGET} live alerts; delete one first`);
  }
  const token = newToken();
  const condition =
    input.above !== undefined
      ? { type: 'above' as const, value: input.above }
      : input.below !== undefined
        ? { type: 'below' as const, value: input.below }
        : { type: 'move_pct' as const, value: input.move_pct! };
  const alert = newAlert(
    {
      id: newId('alrt'),
      token_hash: hashToken(token),
      metal: input.metal,
      currency,
      unit: input.unit,
      condition,
      repeat: input.repeat,
      rearm_pct: input.rearm_pct,
      target,
      secret: target.type === 'webhook' ? newSecret() : '',
      origin: publicOrigin(req.headers, req.url),
    },
    now,
  );
  // A webhook's verification is written with the alert, in its outbox.
  if (target.type === 'webhook') {
    const challenge = newToken();
    alert.outbox = [outboxEvent(alert, 'alert.verification', { alert_id: alert.id, challenge }, challenge, now)];
  }
  await saveAlert(alert);
  if (target.type === 'webhook') void kick();
  const manage = `${alert.origin}/api/v1/alerts/${alert.id}?token=${token}`;
  const body: AlertCreated = {
    id: alert.id,
    status: statusOf(alert, now),
    manage_url: manage,
    expires_at: new Date(alert.expires_at).toISOString(),
    ...(target.type === 'webhook' ? { secret: alert.secret } : {}),
    data_state: await state(),
    updated_at: new Date(now).toISOString(),
  };
  return send(req, JSON.stringify(body), {
    status: 201,
    cache: 'no-store',
    headers: { Location: manage, 'Access-Control-Allow-Methods': COLLECTION_ALLOW, ...limitHeaders },
  });
}

/** The alert the URL names when its token matches, else the 404 an unknown id gets. */
async function owned(req: Request): Promise<Alert> {
  const url = new URL(req.url);
  const id = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
  const a = /^alrt_[A-Za-z0-9_-]{1,64}$/.test(id) ? await loadAlert(id) : null;
  if (!a || !tokenMatches(a, url.searchParams.get('token'))) throw new ApiError(404, 'No such alert (or a wrong token)');
  return a;
}

export function viewOf(a: Alert, dataState: DataState, now = Date.now()): AlertView {
  return {
    id: a.id,
    status: statusOf(a, now),
    metal: a.metal,
    currency: a.currency,
    unit: a.unit,
    condition: a.condition,
    repeat: a.repeat,
    rearm_pct: a.rearm_pct,
    target: a.target.type === 'webhook' ? a.target : { type: 'push', endpoint: a.target.endpoint },
    created_at: new Date(a.created_at).toISOString(),
    expires_at: new Date(a.expires_at).toISOString(),
    last_fired_at: a.last_fired_at === null ? null : new Date(a.last_fired_at).toISOString(),
    fired_count: a.fired_count,
    delivered_count: a.delivered_count,
    disabled_reason: a.disabled_reason,
    deliveries: a.deliveries,
    data_state: dataState,
    updated_at: new Date(now).toISOString(),
  };
}

async function show(req: Request): Promise<Response> {
  const a = await owned(req);
  return send(req, JSON.stringify(viewOf(a, await state())), { cache: 'no-store', headers: { 'Access-Control-Allow-Methods': ALERT_ALLOW } });
}

async function remove(req: Request): Promise<Response> {
  const a = await owned(req);
  await removeAlert(a.id);
  return new Response(null, {
    status: 204,
    headers: { ...CORS_HEADERS, 'Access-Control-Allow-Methods': ALERT_ALLOW, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}

async function pushKey(req: Request): Promise<Response> {
  const body: PushKey = { public_key: (await vapidKeys()).publicKey, data_state: await state(), updated_at: new Date().toISOString() };
  return send(req, JSON.stringify(body), { cache: 'no-store', headers: { 'Access-Control-Allow-Methods': PUSH_KEY_ALLOW } });
}

export const PUSH_KEY_ALLOW = 'GET, HEAD, OPTIONS';

/** /api/v1/alerts/push-key: the VAPID public key browsers subscribe with. */
export const pushKeyRoute = () => methods(PUSH_KEY_ALLOW, { GET: pushKey });
/** /api/v1/alerts: POST creates. */
export const alertCollectionRoute = () => methods(COLLECTION_ALLOW, { POST: create });
/** /api/v1/alerts/{id}?token=…: GET shows, DELETE removes. */
export const alertRoute = () => methods(ALERT_ALLOW, { GET: show, DELETE: remove });
