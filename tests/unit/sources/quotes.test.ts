import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchQuote, readQuotes } from '@/lib/sources/upstream/quotes';
import { UpstreamError } from '@/lib/sources/upstream/fetch';
import { fixture, fixtureText } from '../../support/fake-upstream';

// The quotes-feed adapter on the recorded real bodies and on every way a body can be wrong.

const NOW = Date.parse('2026-11-23T12:00:00Z');
const recorded = () => fixture<any[]>('swissquote-bboquotes-XAU-USD.json');
const narrowest = (entries: any[]) => entries.flatMap((e) => e.spreadProfilePrices).reduce((a, b) => (b.ask - b.bid < a.ask - a.bid ? b : a));
const fails = (body: unknown, metal: 'XAU' | 'XAG' = 'XAU') => expect(() => readQuotes(metal, body, NOW)).toThrow(UpstreamError);

describe('reading rule', () => {
  it('takes the narrowest profile of the recorded body, its mid, and ts as as_of', () => {
    const body = recorded();
    const best = narrowest(body);
    const q = readQuotes('XAU', body, NOW);
    expect(q.value).toMatchObject({ bid: best.bid, ask: best.ask });
    expect(q.value.mid).toBeCloseTo((best.bid + best.ask) / 2, 9);
    expect(q.asOf).toBe(body[0].ts);
    expect(q.fetchedAt).toBe(NOW);
    // The narrowest is not the first profile listed: the rule is doing the choosing.
    expect(best).not.toEqual(body[0].spreadProfilePrices[0]);
  });

  it('reads the 2026-08-18 capture and the silver body', () => {
    const aug = fixture<any[]>('swissquote-bboquotes-XAU-USD-2026-08-18.first-entry.json');
    expect(readQuotes('XAU', aug, NOW).value.bid).toBe(narrowest(aug).bid);
    const xag = fixture<any[]>('swissquote-bboquotes-XAG-USD.constructed.json');
    const q = readQuotes('XAG', xag, NOW);
    expect(q.value.mid).toBeCloseTo(fixture('goldapi-price-XAG.json').price, 2);
  });

  it('ignores entries older than the newest ts, even with a narrower spread', () => {
    const body = recorded();
    const old = body[0];
    old.ts -= 60_000;
    old.spreadProfilePrices[0] = { ...old.spreadProfilePrices[0], bid: 5177.4, ask: 5177.41 };
    const q = readQuotes('XAU', body, NOW);
    const best = narrowest(body.slice(1));
    expect(q.value).toMatchObject({ bid: best.bid, ask: best.ask });
    expect(q.asOf).toBe(body[1].ts);
  });

  it('never dates a quote after the moment it was fetched', () => {
    const body = recorded();
    expect(readQuotes('XAU', body, body[0].ts - 5000).asOf).toBe(body[0].ts - 5000);
  });

  it('skips crossed or broken profiles and uses the valid ones', () => {
    const body = recorded();
    body[0].spreadProfilePrices[2] = { ...body[0].spreadProfilePrices[2], bid: 5177.9, ask: 5177.1 };
    body[1].spreadProfilePrices[2] = { ...body[1].spreadProfilePrices[2], bid: null };
    const q = readQuotes('XAU', body, NOW);
    expect(q.value.ask - q.value.bid).toBeGreaterThan(0);
    expect(q.value).toMatchObject({ bid: narrowest([body[2]]).bid });
  });
});

describe('failures', () => {
  it('rejects an empty array and bodies of the wrong shape', () => {
    fails([]);
    fails({ error: 'not found' });
    fails('5177.5');
    fails(null);
    fails([{ topo: {}, ts: 1773242658815 }]);
    fails([{ spreadProfilePrices: [{ bid: 5177.1, ask: 5177.8 }] }]);
    fails([{ spreadProfilePrices: [{ bid: '5177.1', ask: '5177.8' }], ts: 1773242658815 }]);
  });

  it('rejects a body where no entry has bid < ask', () => {
    const crossed = recorded().map((e) => ({ ...e, spreadProfilePrices: e.spreadProfilePrices.map((p: any) => ({ ...p, ask: p.bid })) }));
    fails(crossed);
    const inverted = recorded().map((e) => ({
      ...e,
      spreadProfilePrices: e.spreadProfilePrices.map((p: any) => ({ ...p, bid: p.ask, ask: p.bid })),
    }));
    fails(inverted);
  });

  it.each([
    ['zero', 0, 0.5],
    ['negative', -5177.2, -5177.1],
    ['absurdly high', 5_177_171, 5_177_829],
    ['silver-sized for gold', 65.7, 65.8],
  ])('rejects %s prices', (_, bid, ask) => {
    fails([{ spreadProfilePrices: [{ spreadProfile: 'elite', bid, ask }], ts: 1773242658815 }]);
  });

  it('rejects a gold-sized quote for silver', () => {
    fails(recorded(), 'XAG');
  });
});

describe('over HTTP', () => {
  let server: http.Server;
  let reply: { status: number; body: string } = { status: 200, body: '' };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(reply.status, { 'content-type': 'text/html' });
      res.end(req.url === '/public-quotes/bboquotes/instrument/XAU/USD' ? reply.body : 'wrong path');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    process.env.QUOTES_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads a recorded body from the documented path', async () => {
    reply = { status: 200, body: fixtureText('swissquote-bboquotes-XAU-USD.json') };
    expect((await fetchQuote('XAU')).value.bid).toBe(narrowest(recorded()).bid);
  });

  it.each([
    ['an HTML page', 200, '<!doctype html><html><body>Just a moment...</body></html>'],
    ['a 500', 500, fixtureText('swissquote-bboquotes-XAU-USD.json')],
    ['a 429', 429, '{"error":"too many requests"}'],
    ['truncated JSON', 200, fixtureText('swissquote-bboquotes-XAU-USD-2026-08-18.truncated.txt')],
  ])('fails on %s', async (_, status, body) => {
    reply = { status, body };
    await expect(fetchQuote('XAU')).rejects.toThrow(UpstreamError);
  });
});
