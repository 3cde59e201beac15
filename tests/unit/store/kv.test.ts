import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { openKvStore } from '@/lib/store/kv';
import { StoreDownError, type Store } from '@/lib/store';

// The KV store's reading of what went wrong, with the real @upstash/redis client over a fake `fetch`
// that speaks Upstash's REST protocol: a command Redis refuses is a defect (logged once, KV stays in
// use), while only the transport (network, HTTP errors, a refused token, limits) is an outage.
// tests/integration/store/ runs the same store against a real redis-server.

type Reply = { result: unknown } | { error: string };

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
/** Upstash-Encoding: base64, as the client asks: strings encoded, a top-level "OK" as it is. */
const encode = (r: unknown, top = true): unknown =>
  typeof r === 'string' ? (top && r === 'OK' ? r : b64(r)) : Array.isArray(r) ? r.map((x) => encode(x, false)) : r;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Installs a fake Upstash: `answer` gets each command (name in upper case) and returns its reply, or a whole
 * Response (an HTTP failure). A single command's error comes back with HTTP 400, a batch's inside a 200.
 */
function fakeUpstash(answer: (cmd: string[]) => Reply | Response) {
  const commands: string[][] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as unknown[];
    const run = (cmd: unknown[]) => {
      const c = cmd.map(String);
      c[0] = c[0].toUpperCase();
      commands.push(c);
      return answer(c);
    };
    if (new URL(String(url)).pathname === '/') {
      const r = run(body);
      if (r instanceof Response) return r;
      return 'error' in r ? json(400, r) : json(200, { result: encode(r.result) });
    }
    const replies = (body as unknown[][]).map(run);
    const failed = replies.find((r) => r instanceof Response);
    if (failed) return failed;
    return json(
      200,
      (replies as Reply[]).map((r) => ('error' in r ? r : { result: encode(r.result) })),
    );
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, commands };
}

const SCRIPT_ERROR = "ERR user_script:2: Script attempted to access nonexistent global variable 'nope' script: 6f1c, on @user_script:2.";
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

let warn: MockInstance<typeof console.warn>;
let error: MockInstance<typeof console.error>;
const stores: Store[] = [];
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  error = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
const open = () => {
  const s = openKvStore({ url: 'http://kv.test', token: 't', prefix: 'p:', timeoutMs: 1000 });
  stores.push(s);
  return s;
};
const lines = (spy: MockInstance<(...args: unknown[]) => void>) => spy.mock.calls.map((c) => String(c[0]));

describe('kv store: a command Redis refuses is a defect, not an outage', () => {
  it('a script error: logged once as a defect, counters fall back to memory, health stays good, the next call goes to KV', async () => {
    const kv = fakeUpstash((cmd) => (cmd[0] === 'EVAL' ? { error: SCRIPT_ERROR } : cmd[0] === 'SET' ? { result: 'OK' } : { result: null }));
    const store = open();
    expect(await store.incr('rl:mcp:1.2.3.4:9', 60)).toBe(1);
    expect(await store.incr('rl:mcp:1.2.3.4:9', 60)).toBe(2);
    expect(lines(error)).toHaveLength(1);
    expect(lines(error)[0]).toContain('KV refused a command (incr: ERR user_script:2');
    expect(lines(error)[0]).toContain('not an outage');
    expect(store.health?.()).toEqual({ degraded: false, since: null, reason: null });

    // A write the script could not make throws a plain Error: it must not look done, nor like KV down.
    const write = store.setIfNewer('barfx:2026-11-18', { as_of: 1, rates: {} }, 60).catch((e: unknown) => e);
    expect(await write).toBeInstanceOf(Error);
    expect(await write).not.toBeInstanceOf(StoreDownError);
    expect(String(await write)).toContain('KV refused setIfNewer: ERR user_script:2');
    await store.setIfNewer('barfx:2026-11-18', { as_of: 1, rates: {} }, 60).catch(() => {});
    expect(lines(error)).toHaveLength(2);

    // KV is not marked down: the next call is sent, and it works.
    const sent = kv.fetch.mock.calls.length;
    await store.set('served:gold', 4012.5);
    expect(kv.fetch.mock.calls.length).toBe(sent + 1);
    expect(kv.commands.at(-1)).toEqual(['SET', 'p:v:served:gold', '4012.5']);
    expect(store.health?.().degraded).toBe(false);
    expect(lines(warn)).toEqual([]);
  });

  it('a key of the wrong type: a get reads as absent, a series read throws a plain Error (HTTP 400 of a single command)', async () => {
    fakeUpstash((cmd) => (['GET', 'ZRANGE'].includes(cmd[0]) ? { error: WRONGTYPE } : { result: null }));
    const store = open();
    expect(await store.get('served:gold')).toBeNull();
    const read = await store.range('intraday:xau', 0, 10).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(Error);
    expect(read).not.toBeInstanceOf(StoreDownError);
    expect(lines(error).map((l) => l.slice(0, l.indexOf(' Operation')))).toEqual([
      '[store] KV refused a command (get: WRONGTYPE',
      '[store] KV refused a command (range: WRONGTYPE',
    ]);
    expect(store.health?.().degraded).toBe(false);
    expect(lines(warn)).toEqual([]);
  });
});

describe('kv store: what counts as an outage', () => {
  const cases: [string, () => Response | Promise<never>][] = [
    ['no connection', () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))],
    ['a refused token (401)', () => json(401, { error: 'WRONGPASS invalid or missing auth token' })],
    ['a read-only token (403)', () => json(403, { error: "NOPERM this user has no permissions to run the 'get' command" })],
    ["Upstash's request limit", () => json(400, { error: 'ERR max requests limit exceeded. Limit: 10000, Usage: 10000' })],
    ["Redis's connection limit", () => json(200, [{ error: 'ERR max number of clients reached' }])],
    ['a server error (500)', () => json(500, { error: 'internal error' })],
    ['a proxy page that is not JSON (502)', () => new Response('<html>Bad Gateway</html>', { status: 502 })],
  ];
  it.each(cases)('%s: StoreDownError, degraded, one warning, no defect logged', async (_, fail) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => fail()),
    );
    const store = open();
    await expect(store.get('served:gold')).rejects.toBeInstanceOf(StoreDownError);
    await expect(store.get('served:gold')).rejects.toBeInstanceOf(StoreDownError);
    expect(store.health?.().degraded).toBe(true);
    expect(lines(warn).filter((l) => l.includes('KV unavailable'))).toHaveLength(1);
    expect(lines(error)).toEqual([]);
  });
});
