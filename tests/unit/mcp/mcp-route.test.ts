import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as mcp from '@/app/mcp/route';
import { call, modern } from '../../support/mcp';

// The /mcp route handler called in process, Request in, Response out: who the rate limit counts as
// one client, the headers that say what is left of it, and arguments no tool could read. The store
// is a fresh embedded one; no upstream is reached (every argument here is refused first).

beforeAll(() => {
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-mcp-route-')));
  vi.stubEnv('GOLD_API_URL', 'http://127.0.0.1:9');
});
afterAll(() => vi.unstubAllEnvs());

const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

function post(headers: Record<string, string>, body: unknown = PING): Promise<Response> {
  return mcp.POST(
    new Request('http://t/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** Uses up one client's 120 requests (all answered 200). */
async function exhaust(headers: Record<string, string>): Promise<void> {
  const statuses = await Promise.all(Array.from({ length: 120 }, () => post(headers).then((r) => r.status)));
  expect(statuses.every((s) => s === 200)).toBe(true);
}

describe('mcp rate limit: who counts as one client', () => {
  // Every test in a window of its own (no count carries over), with Date standing still 12 s into a
  // 30 s window, so no window ends mid-test.
  const WINDOW_S = 30;
  const FIRST_HOUR = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  let tests = 0;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(FIRST_HOUR + ++tests * 3_600_000 + 12_000);
    vi.stubEnv('MCP_RATE_WINDOW_S', String(WINDOW_S));
    vi.stubEnv('TRUST_PROXY', '');
    vi.stubEnv('VERCEL', '');
  });
  afterEach(() => vi.useRealTimers());

  it('the 121st request is 429 with Retry-After, RateLimit-Policy and RateLimit; every answer says what is left', async () => {
    const client = { 'x-socket-address': '198.51.100.7' };
    const first = await post(client);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"mcp";q=120;w=30');
    expect(first.headers.get('ratelimit')).toBe('"mcp";r=119;t=18');
    const rest = await Promise.all(Array.from({ length: 119 }, () => post(client)));
    expect(rest.map((r) => r.headers.get('ratelimit')).sort()).toContain('"mcp";r=0;t=18');

    const over = await post(client);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32029 } });
    expect(over.headers.get('retry-after')).toBe('18');
    expect(over.headers.get('ratelimit-policy')).toBe('"mcp";q=120;w=30');
    expect(over.headers.get('ratelimit')).toBe('"mcp";r=0;t=18');
    // A browser client may read them.
    const exposed = over.headers.get('access-control-expose-headers')?.toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['retry-after', 'ratelimit', 'ratelimit-policy']));
    expect(first.headers.get('access-control-expose-headers')).toBe(over.headers.get('access-control-expose-headers'));
  });

  it('the policy follows the configured window', async () => {
    vi.stubEnv('MCP_RATE_WINDOW_S', '10');
    const r = await post({ 'x-socket-address': '198.51.100.8' });
    expect(r.headers.get('ratelimit-policy')).toBe('"mcp";q=120;w=10');
    expect(r.headers.get('ratelimit')).toBe('"mcp";r=119;t=8');
  });

  it('TRUST_PROXY=1: two clients behind one proxy address get a bucket each', async () => {
    vi.stubEnv('TRUST_PROXY', '1');
    const proxy = '10.0.0.2';
    await exhaust({ 'x-socket-address': proxy, 'x-forwarded-for': '203.0.113.1' });
    expect((await post({ 'x-socket-address': proxy, 'x-forwarded-for': '203.0.113.1' })).status).toBe(429);
    expect((await post({ 'x-socket-address': proxy, 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
  });

  it('TRUST_PROXY=1: a client that writes its own first hops stays in its own bucket', async () => {
    vi.stubEnv('TRUST_PROXY', '1');
    const proxy = '10.0.0.3';
    await exhaust({ 'x-socket-address': proxy, 'x-forwarded-for': '203.0.113.3' });
    // The proxy appends the address it saw to whatever the client sent.
    for (const forged of ['198.51.100.99, 203.0.113.3', '1.2.3.4,5.6.7.8 ,203.0.113.3', 'unknown, 203.0.113.3']) {
      expect((await post({ 'x-socket-address': proxy, 'x-forwarded-for': forged })).status, forged).toBe(429);
    }
  });

  it('without TRUST_PROXY the X-Forwarded-For a client sends is ignored', async () => {
    const socket = '198.51.100.10';
    await exhaust({ 'x-socket-address': socket, 'x-forwarded-for': '203.0.113.4' });
    expect((await post({ 'x-socket-address': socket, 'x-forwarded-for': '203.0.113.5' })).status).toBe(429);
    expect((await post({ 'x-socket-address': socket })).status).toBe(429);
    expect((await post({ 'x-socket-address': '198.51.100.11', 'x-forwarded-for': '203.0.113.4' })).status).toBe(200);
  });

  it('IPv6 counts per /64: one /64 shares a bucket, the next /64 has its own', async () => {
    await exhaust({ 'x-socket-address': '2001:db8:1:2::1' });
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::5%eth0']) {
      expect((await post({ 'x-socket-address': same })).status, same).toBe(429);
    }
    for (const other of ['2001:db8:1:3::1', '2001:db8:1::1']) {
      expect((await post({ 'x-socket-address': other })).status, other).toBe(200);
    }
  });

  it('an IPv4 client seen through a dual-stack socket (::ffff:a.b.c.d) is the same IPv4 client', async () => {
    await exhaust({ 'x-socket-address': '::ffff:192.0.2.44' });
    expect((await post({ 'x-socket-address': '192.0.2.44' })).status).toBe(429);
    expect((await post({ 'x-socket-address': '192.0.2.45' })).status).toBe(200);
  });

  it('TRUST_PROXY=1: IPv6 hops count per /64 too', async () => {
    vi.stubEnv('TRUST_PROXY', '1');
    await exhaust({ 'x-socket-address': '10.0.0.4', 'x-forwarded-for': '2001:db8:aa:bb::1' });
    expect((await post({ 'x-socket-address': '10.0.0.4', 'x-forwarded-for': '[2001:db8:aa:bb::2]:4431' })).status).toBe(429);
    expect((await post({ 'x-socket-address': '10.0.0.4', 'x-forwarded-for': '2001:db8:aa:bc::1' })).status).toBe(200);
  });

  it("on Vercel the platform's x-real-ip decides, not the X-Forwarded-For hops or a socket header a client sends", async () => {
    vi.stubEnv('VERCEL', '1');
    await exhaust({ 'x-real-ip': '203.0.113.20', 'x-forwarded-for': '203.0.113.20' });
    expect((await post({ 'x-real-ip': '203.0.113.20', 'x-forwarded-for': '198.51.100.1', 'x-socket-address': '198.51.100.2' })).status).toBe(429);
    expect((await post({ 'x-real-ip': '203.0.113.21', 'x-forwarded-for': '203.0.113.20' })).status).toBe(200);
  });

  // decisions §25: every JSON-RPC message counts, so a batch cannot buy more than a client's share.
  const pings = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ ...PING, id: from + i }));
  const left = (r: Response) => Number(/;r=(\d+);/.exec(r.headers.get('ratelimit') ?? '')?.[1]);

  // decisions §33: a hosted agent platform calls for all of its users from one published range.
  it("Anthropic's published range shares a pool of its own: 130 requests from its addresses pass, 121 from one other address meet a 429", async () => {
    const fromRange = (i: number) => ({ 'x-socket-address': `160.79.${104 + (i % 8)}.${1 + (i % 250)}` });
    const answers = await Promise.all(Array.from({ length: 130 }, (_, i) => post(fromRange(i))));
    expect(answers.map((r) => r.status)).toEqual(Array(130).fill(200));
    expect(answers[0].headers.get('ratelimit-policy')).toBe('"mcp";q=6000;w=30');
    // One count for the whole range, not one per address: 130 taken from its 6,000.
    expect(Math.min(...answers.map(left))).toBe(6000 - 130);
    // Just outside the /21 is one client like any other.
    await exhaust({ 'x-socket-address': '160.79.112.1' });
    const over = await post({ 'x-socket-address': '160.79.112.1' });
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit-policy')).toBe('"mcp";q=120;w=30');
  });

  it('MCP_POOLS sets the pools (IPv4 and IPv6, each with its limit); empty, there are none', async () => {
    vi.stubEnv('MCP_POOLS', '203.0.113.0/24=3, 2001:db8:ff00::/40=2, not-a-range=9');
    const v4 = await Promise.all([1, 2, 3, 4].map((n) => post({ 'x-socket-address': `203.0.113.${n}` })));
    expect(v4.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect((await post({ 'x-socket-address': '2001:db8:ff01::1' })).status).toBe(200);
    expect((await post({ 'x-socket-address': '2001:db8:ff42:7::9' })).status).toBe(200);
    const six = await post({ 'x-socket-address': '2001:db8:ffff::1' });
    expect(six.status).toBe(429);
    expect(((await six.json()) as { error: { message: string } }).error.message).toMatch(
      /2 messages per minute shared by the address range 2001:db8:ff00::\/40/,
    );
    // Anthropic's range is no pool once MCP_POOLS names others.
    await exhaust({ 'x-socket-address': '160.79.104.9' });
    expect((await post({ 'x-socket-address': '160.79.104.9' })).status).toBe(429);
    vi.stubEnv('MCP_POOLS', '');
    expect((await post({ 'x-socket-address': '203.0.113.1' })).headers.get('ratelimit-policy')).toBe('"mcp";q=120;w=30');
  });

  it('a batch of 100 counts 100: the single requests after it get 20, the 21st is 429', async () => {
    const client = { 'x-socket-address': '198.51.100.60' };
    const batch = await post(client, pings(100));
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as { id: number; result?: unknown }[];
    expect(answers.map((a) => a.id).sort((x, y) => x - y)).toEqual(pings(100).map((p) => p.id));
    expect(left(batch)).toBe(20);
    const singles: number[] = [];
    for (let i = 0; i < 21; i++) singles.push((await post(client)).status);
    expect(singles.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(singles[20]).toBe(429);
  });

  it('a batch of 130 in a fresh window is a 429 whole, none of it run, and costs nothing of what is left', async () => {
    const client = { 'x-socket-address': '198.51.100.61' };
    const over = await post(client, pings(130));
    expect(over.status).toBe(429);
    // One JSON-RPC error for the POST: no answer to any of its 130 requests.
    const body = (await over.json()) as unknown;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32029 } });
    expect((body as { error: { message: string } }).error.message).toMatch(/120 messages per minute.*batch of 130/);
    expect(over.headers.get('retry-after')).toBe('18');
    expect(left(over)).toBe(120);
    // The whole share is still there: batches of 100 and 20 fit, one more message does not.
    const most = await post(client, pings(100));
    expect(most.status).toBe(200);
    expect(((await most.json()) as unknown[]).length).toBe(100);
    const rest = await post(client, pings(20));
    expect(rest.status).toBe(200);
    expect(left(rest)).toBe(0);
    expect((await post(client)).status).toBe(429);
  });

  it('a batch counts against what single requests left: 119 used, a batch of 2 is refused whole, a single one passes', async () => {
    const client = { 'x-socket-address': '198.51.100.62' };
    await post(client, pings(100));
    const first = await post(client, pings(19));
    expect(left(first)).toBe(1);
    expect((await post(client, pings(2))).status).toBe(429);
    const last = await post(client);
    expect(last.status).toBe(200);
    expect(left(last)).toBe(0);
  });

  it('a client over the limit gets its 429 without its body being read, even a body that never ends', async () => {
    const client = { 'x-socket-address': '198.51.100.64' };
    await exhaust(client);
    let pulls = 0;
    // An upload that never finishes: nothing is ever enqueued and the stream never closes.
    const endless = new ReadableStream<Uint8Array>(
      {
        pull: () => {
          pulls++;
          return new Promise<void>(() => {});
        },
      },
      { highWaterMark: 0 },
    );
    const answer = mcp.POST(
      new Request('http://t/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...client },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    // Had the route waited for the body, the answer would never come: the cap is only there to name that failure.
    let waiting: ReturnType<typeof setTimeout> | undefined;
    const never = new Promise<'no answer'>((resolve) => (waiting = setTimeout(() => resolve('no answer'), 20_000)));
    const r = await Promise.race([answer, never]);
    clearTimeout(waiting);
    expect(r).toBeInstanceOf(Response);
    const res = r as Response;
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('18');
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({ error: { code: -32029, message: expect.stringMatching(/0 left, not enough for this request/) } });
    expect(pulls).toBe(0);
  });

  it('a client of protocol 2025-06-18 or later gets Invalid Request (-32600) for a batch; an older one is served', async () => {
    const client = { 'x-socket-address': '198.51.100.63' };
    for (const version of ['2025-06-18', '2025-11-25']) {
      const r = await post({ ...client, 'mcp-protocol-version': version }, pings(3));
      expect(r.status, version).toBe(400);
      expect(await r.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batch/i) } });
    }
    // The 2026-07-28 era names its version in each request's _meta.
    const r2026 = await post({ ...client, 'mcp-protocol-version': '2026-07-28' }, [
      modern('tools/list', {}, 1).body,
      modern('tools/list', {}, 2).body,
    ]);
    expect(r2026.status).toBe(400);
    expect(((await r2026.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const older = await post({ ...client, 'mcp-protocol-version': '2025-03-26' }, pings(3));
    expect(older.status).toBe(200);
    expect(((await older.json()) as unknown[]).length).toBe(3);
    // One message alone is never a batch, whatever the version.
    expect((await post({ ...client, 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
  });
});

type ToolResult = { result?: { isError?: boolean; content: { text: string }[] }; error?: { code: number; message: string } };

describe('mcp: arguments no tool could read are refused by name, never an internal failure', () => {
  const DEEP = 40_000;
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  // The nested value is written as JSON text: building it as an object and stringifying it would overflow here first.
  const legacyCall = (args: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_gold_price","arguments":${args}}}`;

  function expectRefused(body: ToolResult, argument: string) {
    const text = body.result?.content[0].text ?? body.error?.message ?? '';
    expect(body.result?.isError === true || body.error?.code === -32602, JSON.stringify(body).slice(0, 300)).toBe(true);
    expect(text).toContain(argument);
    expect(text).not.toMatch(/Internal failure|Maximum call stack/);
    // The value is described, not echoed.
    expect(text.length).toBeLessThan(400);
  }

  it(`a ${DEEP}-level nested argument (2025 era)`, async () => {
    const res = await post({}, legacyCall(`{"currency":${nested(DEEP)}}`));
    expect(res.status).toBe(200);
    const body = (await res.json()) as ToolResult;
    expectRefused(body, 'currency');
    expect(body.result?.content[0].text).toBe(
      'Invalid currency: an object nested deeper than 10 levels. Valid values: an ISO 4217 code such as USD, EUR, GBP, JPY or INR (160+ supported)',
    );
  });

  it(`a ${DEEP}-level nested argument (2026-07-28)`, async () => {
    const { body, headers } = modern('tools/call', { name: 'get_gold_intraday', arguments: { hours: 0 } }, 8);
    const text = JSON.stringify(body).replace('"hours":0', `"hours":${nested(DEEP)}`);
    const res = await post(headers, text);
    expect(res.status).toBe(200);
    expectRefused((await res.json()) as ToolResult, 'hours');
  });

  it('a deeply nested array, and two unreadable arguments at once: each named', async () => {
    const res = await post({}, legacyCall(`{"currency":${'['.repeat(DEEP)}${']'.repeat(DEEP)},"unit":"${'x'.repeat(5000)}"}`));
    const body = (await res.json()) as ToolResult;
    expectRefused(body, 'currency');
    expect(body.result?.content[0].text).toBe(
      'Invalid currency: an array nested deeper than 10 levels. Valid values: an ISO 4217 code such as USD, EUR, GBP, JPY or INR (160+ supported); ' +
        'Invalid unit: a string of 5000 characters. Valid values: oz, gram, kg, tola, tael, baht, chi, luong, don, pavan, dwt, grain',
    );
  });

  it('a string argument as long as the body limit allows is named, not echoed', async () => {
    const res = await post({}, call('get_central_bank_reserves', { country: 'x'.repeat(200_000) }));
    const body = (await res.json()) as ToolResult;
    expectRefused(body, 'country');
    expect(body.result?.content[0].text).toMatch(/^Invalid country: a string of 200000 characters\. Valid values: /);
  });

  it('a 1 MB string argument is past the body limit: 413 before anything is parsed', async () => {
    const res = await post({}, call('get_gold_price', { currency: 'x'.repeat(1_000_000) }));
    expect(res.status).toBe(413);
    const body = (await res.json()) as ToolResult;
    expect(body.error).toMatchObject({ code: -32000 });
    expect(body.error?.message).not.toMatch(/Internal failure/);
  });

  it('a short wrong value is still quoted as before', async () => {
    const res = await post({}, call('get_gold_price', { currency: { a: [1, 2] } }));
    expect(((await res.json()) as ToolResult).result?.content[0].text).toMatch(/^Invalid currency: \{"a":\[1,2\]\}\. Valid values: /);
  });
});

describe('mcp: an upload the client abandons', () => {
  it('is logged as aborted, with no error and no stack', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let answer: Promise<Response> | undefined;
    // The route gets the request as Next hands it over: the Node request stream as the body.
    const server = http.createServer((req) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      answer = mcp.POST(
        new Request(`http://t${req.url}`, { method: 'POST', headers, body: req as unknown as BodyInit, duplex: 'half' } as RequestInit),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      socket.write(
        'POST /mcp HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
          'X-Socket-Address: 198.51.100.50\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":"2.0",',
      );
      await vi.waitFor(() => expect(answer).toBeDefined());
      await new Promise((r) => setTimeout(r, 50));
      socket.destroy();
      const res = await answer!;
      expect(res.status).toBe(400);
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(
        /\[mcp\] request aborted: the client closed the connection after 17 of 100000 bytes/,
      );
      expect(error).not.toHaveBeenCalled();
    } finally {
      server.close();
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
