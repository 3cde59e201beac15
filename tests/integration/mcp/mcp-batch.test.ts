import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../support/app';
import { FakeUpstream } from '../../support/fake-upstream';
import { call, rpc } from '../../support/mcp';
import { inOneRateWindow, windowStart } from '../../support/rate-window';

// JSON-RPC batches against the built app over real HTTP (decisions §25): every message counts toward
// the 120 a minute, so a batch cannot buy more than a client's share; a batch that would pass the limit
// is refused whole; a client of protocol 2025-06-18 or later, which removed batching, cannot send one.

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
});
afterAll(() => fake?.close());

const prices = (n: number) => Array.from({ length: n }, (_, i) => call('get_gold_price', { currency: 'EUR' }, i + 1));
const left = (headers: Headers) => Number(/;r=(\d+);/.exec(headers.get('ratelimit') ?? '')?.[1]);

describe('mcp: batches and the rate limit', () => {
  it('a batch of 100 calls counts 100: the single calls after it are refused by the 21st; a batch of 130 is a 429 whole', async () => {
    // 10 s fits the burst on a quiet machine; a loaded one gets 30 s (tests/support/rate-window.ts).
    await inOneRateWindow([10, 30], async (win) => {
      const a = await App.start({ env: { ...fake.env(), MCP_RATE_WINDOW_S: String(win) } });
      try {
        // Warm the price first, outside any window that counts, so the burst is only the burst.
        expect((await a.json('/api/v1/spot')).status).toBe(200);
        const inWindow = await windowStart(win, win / 2);
        const batch = await rpc(a, prices(100));
        expect(batch.status).toBe(200);
        const answers = batch.json as { id: number; result: { structuredContent: { xau: { price: number } } } }[];
        expect(answers.map((r) => r.id).sort((x, y) => x - y)).toEqual(prices(100).map((m) => m.id));
        expect(answers.every((r) => r.result.structuredContent.xau.price > 0)).toBe(true);
        expect(left(batch.headers)).toBe(20);
        const singles: number[] = [];
        for (let i = 0; i < 21; i++) singles.push((await rpc(a, call('get_gold_price', {}))).status);
        if (!inWindow()) return 'crossed';
        expect(singles.slice(0, 20)).toEqual(Array(20).fill(200));
        expect(singles[20]).toBe(429);

        // The next window, from its start: a batch of 130 is refused whole, and none of it spent.
        const fresh = await windowStart(win);
        const over = await rpc(a, prices(130));
        const after = await rpc(a, call('get_gold_price', {}));
        if (!fresh()) return 'crossed';
        expect(over.status).toBe(429);
        expect(over.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32029 } });
        expect(Array.isArray(over.json)).toBe(false);
        expect(left(over.headers)).toBe(120);
        expect(after.status).toBe(200);
        expect(left(after.headers)).toBe(119);
        return 'done';
      } finally {
        await a.stop();
      }
    });
  }, 150_000);

  it('a client that declared 2025-06-18 or later gets Invalid Request (-32600) for a batch; a 2025-03-26 one is served', async () => {
    const a = await App.start({ env: fake.env() });
    try {
      for (const version of ['2025-06-18', '2025-11-25']) {
        const r = await rpc(a, prices(2), { 'mcp-protocol-version': version });
        expect(r.status, version).toBe(400);
        expect(r.json, version).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      }
      const older = await rpc(a, prices(2), { 'mcp-protocol-version': '2025-03-26' });
      expect(older.status).toBe(200);
      expect((older.json as unknown[]).length).toBe(2);
    } finally {
      await a.stop();
    }
  });
});
