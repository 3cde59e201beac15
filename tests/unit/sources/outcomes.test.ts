import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setOutcomeWriter, type Outcome } from '@/lib/sources/outcome-sink';
import { attempting, getJson, getValid, UpstreamError } from '@/lib/sources/upstream/fetch';

// Each attempt on an upstream is recorded once, with the kind a reader of the status page would name: a real
// local server answers as upstreams misbehave.

let server: http.Server;
let base = '';
const hung: http.ServerResponse[] = [];
const seen: (Outcome & { upstream: string })[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (req.url === '/ok') return send(200, '{"price": 4392}');
    if (req.url === '/500') return send(500, '{"error":"internal"}');
    if (req.url === '/502-text') return send(502, '<html>bad gateway</html>');
    if (req.url === '/malformed') return send(200, '{"price": 43');
    if (req.url === '/refuse') return req.socket.destroy();
    if (req.url === '/hang') return void hung.push(res);
    send(404, '{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.UPSTREAM_TIMEOUT_MS = '300';
});
afterAll(async () => {
  delete process.env.UPSTREAM_TIMEOUT_MS;
  for (const res of hung) res.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen.length = 0;
  setOutcomeWriter((upstream, o) => seen.push({ upstream, ...o }));
});

const Body = z.object({ price: z.number().positive() });

describe('upstream outcomes', () => {
  it('a good answer read through is ok, with its status and latency', async () => {
    await getValid('up', `${base}/ok`, Body);
    expect(seen).toEqual([{ upstream: 'up', at: expect.any(Number), ms: expect.any(Number), kind: null, status: 200 }]);
  });

  it('a non-2xx answer is http with its status, JSON or not', async () => {
    await expect(getValid('up', `${base}/500`, Body)).rejects.toThrow(UpstreamError);
    await expect(getJson('up', `${base}/502-text`)).rejects.toThrow(UpstreamError);
    expect(seen.map((o) => [o.kind, o.status])).toEqual([
      ['http', 500],
      ['http', 502],
    ]);
  });

  it('a body that is not JSON, of the wrong shape, or that the reader rejects is invalid', async () => {
    await expect(getJson('up', `${base}/malformed`)).rejects.toThrow(UpstreamError);
    await expect(getValid('up', `${base}/ok`, z.object({ symbol: z.string() }))).rejects.toThrow(UpstreamError);
    await expect(
      attempting(async () => {
        const { price } = await getValid('up', `${base}/ok`, Body);
        if (price > 1000) throw new UpstreamError('feed', `price ${price} moved too far`);
        return price;
      }),
    ).rejects.toThrow(/moved too far/);
    expect(seen.map((o) => [o.kind, o.status])).toEqual([
      ['invalid', 200],
      ['invalid', 200],
      ['invalid', 200],
    ]);
  });

  it('a dropped connection is network, no answer in time is timeout; each attempt once', async () => {
    await expect(getJson('up', `${base}/refuse`)).rejects.toThrow(/unreachable/);
    await expect(getJson('up', `${base}/hang`)).rejects.toThrow(/timed out/);
    expect(seen.map((o) => [o.kind, o.status])).toEqual([
      ['network', null],
      ['timeout', null],
    ]);
  });
});
