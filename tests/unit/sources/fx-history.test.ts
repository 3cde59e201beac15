import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setOutcomeWriter, type Outcome } from '@/lib/sources/outcome-sink';
import { fetchFxCurrencies, fetchFxRates, FX_HISTORY_API_NAME } from '@/lib/sources/upstream/fx-history';
import { FakeUpstream } from '../../support/fake-upstream';
import { fxCurrenciesBody, ratesOf } from '../../support/fx-history';

// The historical-FX adapter against the fake Frankfurter v2 (real rates, tests/fixtures/SOURCES.md): what the status
// page counts of its answers, and a currency list with a bad row in it.

let fake: FakeUpstream;
const seen: (Outcome & { upstream: string })[] = [];

beforeAll(async () => {
  fake = await FakeUpstream.start();
  process.env.FX_HISTORY_API_URL = fake.url;
});
afterAll(async () => {
  delete process.env.FX_HISTORY_API_URL;
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.resetCalls();
  fake.fxHistoryMaxYears = null;
  seen.length = 0;
  setOutcomeWriter((upstream, o) => seen.push({ upstream, ...o }));
});

describe('Frankfurter v2 adapter', () => {
  it('its refusal of a long range, asked again in pieces, is recorded as an answer, not a failure', async () => {
    fake.fxHistoryMaxYears = 5;
    const rates = await fetchFxRates('EUR', '2007-06-22', '2026-04-16');
    // Every rate of the fixture, once, in order: the pieces join without a hole or an overlap.
    expect(rates).toEqual([...ratesOf('EUR')].map(([d, r]) => ({ d, r })));
    const statuses = seen.filter((o) => o.upstream === FX_HISTORY_API_NAME).map((o) => [o.kind, o.status]);
    expect(statuses[0]).toEqual([null, 422]);
    expect(statuses.length).toBe(fake.calls.fxHistory);
    expect(statuses.length).toBeGreaterThan(2);
    expect(statuses.every(([kind]) => kind === null)).toBe(true);
  });

  it('a 422 to a short range is still a failure (nothing to split)', async () => {
    fake.set('fxHistory', { mode: 'json', status: 422, body: { status: 422, message: 'invalid quote' } });
    await expect(fetchFxRates('EUR', '2020-01-01', '2020-12-31')).rejects.toThrow(/HTTP 422/);
    expect(seen.map((o) => [o.kind, o.status])).toEqual([['http', 422]]);
  });

  it('one malformed row in the currency list drops that row, not the list', async () => {
    const good = fxCurrenciesBody() as { iso_code: string }[];
    fake.set('fxCurrencies', {
      mode: 'json',
      body: [...good.slice(0, 2), { iso_code: 'BGN', start_date: '1999-01-04T00:00:00', end_date: 7 }, { name: 'no code' }, ...good.slice(2)],
    });
    const list = await fetchFxCurrencies();
    expect(Object.keys(list).sort()).toEqual(good.map((c) => c.iso_code).sort());
    expect(list.HRK).toEqual({ from: '2020-01-02', to: '2022-12-30' });
    // A list with no good row at all is a wrong answer.
    fake.set('fxCurrencies', { mode: 'json', body: [{ iso_code: 'eu' }] });
    await expect(fetchFxCurrencies()).rejects.toThrow(/currencies listed/);
  });
});

describe('kept rates', () => {
  it('are fetched again whole once a week, so a backfill of past days arrives; between, only the new days are asked', async () => {
    const { readFxSeries } = await import('@/lib/sources/fx-history');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-fx-history-'));
    process.env.CACHE_TTL_S = '1';
    // The source has not yet published JPY for March 2020 (it will backfill it).
    fake.fxHistoryWithheld = { quote: 'JPY', from: '2020-03-01', to: '2020-03-31' };
    const jpy = ratesOf('JPY');
    const first = [...jpy.keys()][0];
    const march = [...jpy.keys()].filter((d) => d.startsWith('2020-03'));
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      const a = await readFxSeries('JPY', first);
      expect(a.series!.d.filter((d) => d.startsWith('2020-03'))).toEqual([]);
      fake.fxHistoryWithheld = null;
      // Six days later: only the days after the last one kept are asked; the backfill is not seen yet.
      fake.resetCalls();
      vi.setSystemTime(start + 6 * 86_400_000);
      const b = await readFxSeries('JPY', first);
      const asked = fake.log.filter((l) => l.startsWith('/v2/rates')).map((l) => new URL(l, 'http://x').searchParams.get('from'));
      expect(asked).toEqual([new Date(Date.parse(`${a.series!.d.at(-1)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)]);
      expect(b.series!.d.filter((d) => d.startsWith('2020-03'))).toEqual([]);
      // A week after the whole range was fetched: the whole range again, March 2020 included, at the source's rates.
      fake.resetCalls();
      vi.setSystemTime(start + 7 * 86_400_000 + 1000);
      const c = await readFxSeries('JPY', first);
      expect(fake.log.filter((l) => l.startsWith('/v2/rates')).map((l) => new URL(l, 'http://x').searchParams.get('from'))).toEqual([first]);
      expect(c.status).toBe('fresh');
      expect(c.series!.d).toEqual([...jpy.keys()]);
      expect(c.series!.r).toEqual([...jpy.values()]);
      expect(march.length).toBeGreaterThan(15);
    } finally {
      vi.useRealTimers();
      fake.fxHistoryWithheld = null;
    }
  });
});
