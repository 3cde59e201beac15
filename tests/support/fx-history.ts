import { fixtureText } from './fake-upstream';

// The fake historical-FX upstream's data: real rates per USD (tests/fixtures/frankfurter-v2-usd-rates.csv, see
// SOURCES.md), answered in Frankfurter v2's shapes.

export interface FxRow {
  date: string;
  quote: string;
  rate: number;
}

let rows: FxRow[] | null = null;
/** Every row of the fixture, oldest first. */
export function fxRows(): FxRow[] {
  rows ??= fixtureText('frankfurter-v2-usd-rates.csv')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [date, quote, rate] = line.split(',');
      return { date, quote, rate: Number(rate) };
    });
  return rows;
}

/** The rates of one currency per USD by date, for the tests' own conversions. */
export function ratesOf(quote: string): Map<string, number> {
  return new Map(fxRows().flatMap((r) => (r.quote === quote ? [[r.date, r.rate] as const] : [])));
}

/** `GET /v2/rates?base=USD&quotes=…&from=…&to=…`: the rows asked, as Frankfurter answers them (`until`: the last date the fake has published; `withheld`: rows it has not published yet). */
export function fxRatesBody(q: URLSearchParams, until: string | null, withheld: { quote: string; from: string; to: string } | null = null): unknown {
  const quotes = new Set((q.get('quotes') ?? '').toUpperCase().split(',').filter(Boolean));
  const from = q.get('from') ?? '0000';
  const to = q.get('to') ?? '9999';
  const held = (r: FxRow) => withheld !== null && r.quote === withheld.quote && r.date >= withheld.from && r.date <= withheld.to;
  return fxRows()
    .filter((r) => quotes.has(r.quote) && r.date >= from && r.date <= to && (until === null || r.date <= until) && !held(r))
    .map((r) => ({ date: r.date, base: 'USD', quote: r.quote, rate: r.rate }));
}

/**
 * Currencies the fixture holds that ended (Frankfurter lists each with the last date it has a rate for): the kuna,
 * replaced by the euro on 2023-01-01, its last ECB rate 2022-12-30.
 */
export const ENDED_CURRENCIES = new Set(['HRK']);

/**
 * `GET /v2/currencies`: each currency of the fixture, and USD, with the first and last date it has a rate for. The
 * fixture's rows of a currency that still publishes stop where the copies found stop, not where the source does: as
 * Frankfurter lists a current currency with its latest date, those are listed with today's.
 */
export function fxCurrenciesBody(): unknown {
  const span = new Map<string, { start: string; end: string }>();
  for (const r of fxRows()) {
    const s = span.get(r.quote);
    if (!s) span.set(r.quote, { start: r.date, end: r.date });
    else s.end = r.date;
  }
  const eur = span.get('EUR')!;
  span.set('USD', eur);
  const today = new Date().toISOString().slice(0, 10);
  return [...span]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([iso_code, s]) => ({
      iso_code,
      iso_numeric: null,
      name: iso_code,
      symbol: null,
      start_date: s.start,
      end_date: ENDED_CURRENCIES.has(iso_code) ? s.end : today,
    }));
}
