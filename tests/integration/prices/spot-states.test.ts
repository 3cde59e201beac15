import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { Spot } from '@/lib/schemas/spot';
import { sleep } from '../../support/expect';
import { fixture } from '../../support/fake-upstream';
import { scenarios } from '../../support/scenario';

// Freshness as only the built app shows it: the whole path through a real restart with the price page, and a burst
// over real connections. Each scenario gets its own app and store, with every cache TTL at 1 s (CACHE_TTL_S) so an
// outage is noticed on the next request. The quotes feed refuses throughout, so gold comes from gold-api.com alone.
// Every other state (never seen, garbage, a hang, each group alone, single flight, the back-off) is tested at the
// route handler, in process: tests/unit/prices/spot-states.test.ts.

const gold = fixture('goldapi-price-XAU.json');
const goldAsOf = new Date(gold.updatedAt).toISOString();
const TTL_ENV = { CACHE_TTL_S: '1' };
/** Longer than the 1 s TTL and the 1 s retry pause after a failure. */
const PAST_TTL = 1200;

// The quotes feed refuses in every scenario here (see above).
const scenario = scenarios({ env: TTL_ENV, prepare: (fake) => fake.set('quotes', { mode: 'refuse' }), spare: false });

describe('gold: fresh → outage → stale → restart → recovery', () => {
  it('follows the whole path and never invents a price', async () => {
    const { app, fake } = await scenario();
    const fresh = await app.json('/api/v1/spot?compact=1');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ stale: false, data_state: { status: 'fresh' } });

    fake.set('gold', { mode: 'refuse' });
    await sleep(PAST_TTL);
    const stale = await app.json('/api/v1/spot?compact=1&currency=EUR');
    expect(stale.status).toBe(200);
    Spot.parse(stale.body);
    expect(stale.body.stale).toBe(true);
    expect(stale.body.data_state).toMatchObject({ status: 'stale', as_of: goldAsOf, source: 'cache' });
    expect(stale.body.data_state.age_seconds).toBe(Math.floor((Date.parse(stale.body.updated_at) - Date.parse(goldAsOf)) / 1000));
    expect(stale.body.price_as_of).toBe(goldAsOf);
    expect(stale.body.price_as_of).not.toBe(stale.body.updated_at);
    expect(stale.body.spot_usd_oz).toBe(gold.price);
    expect(stale.body.groups.gold.status).toBe('stale');
    // The price page shows the last real price, flagged stale with its age, in the same currency (decisions §27).
    const page = await (await app.get('/gold/eur/oz')).text();
    expect(page).toContain(`data-f="price" data-v="${stale.body.xau.price}"`);
    expect(page).toMatch(/<span data-f="state" data-v="" class="badge">Stale · [^<]*ago<\/span>/);

    // A new process during the outage still has the last real price, from the store.
    await app.restart();
    const afterRestart = await app.json('/api/v1/spot?compact=1');
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body).toMatchObject({ stale: true, spot_usd_oz: gold.price, price_as_of: goldAsOf });
    expect(afterRestart.body.data_state).toMatchObject({ status: 'stale', source: 'cache' });

    fake.reset();
    await sleep(PAST_TTL);
    const recovered = await app.json('/api/v1/spot?compact=1');
    expect(recovered.body).toMatchObject({ stale: false, data_state: { status: 'fresh', source: 'upstream' } });
    expect(recovered.body.price_as_of).toBe(recovered.body.updated_at);
  });
});

describe('single-flight', () => {
  it('a cold instance under a burst of 2,000 requests answers every one with the real price, from one gold call', async () => {
    // The boot-time fetch on, as `npm start` runs; a slow upstream and a timeout the burst's own
    // queueing could exceed if the process blamed the upstream for it. Each request has its own
    // throwaway parameter, so the response cache in front cannot absorb the burst. The long TTL keeps
    // a slow machine's burst within one lifetime of the price, so one call is the right count.
    const { app, fake } = await scenario((f) => f.set('gold', { mode: 'ok', delayMs: 300 }), {
      CACHE_TTL_S: '3600',
      UPSTREAM_TIMEOUT_MS: '2000',
      WARM_FEEDS: 'on',
      RESPONSE_CACHE: 'on',
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    try {
      const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => getJson(`${app.url}/api/v1/spot?compact=1&n=${i}`, agent)));
      const wrong = answers.filter((a) => a.status !== 200 || a.body.spot_usd_oz !== gold.price || a.body.data_state?.status !== 'fresh');
      expect(wrong.length, JSON.stringify(wrong.slice(0, 2))).toBe(0);
      expect(fake.calls.gold).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 180_000);
});

/** GET through a bounded agent: 2,000 requests in flight at once, over at most 256 connections. */
function getJson(url: string, agent: http.Agent): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}
