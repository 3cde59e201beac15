import { z } from 'zod';
import { config } from '../../core/config';
import { getValid, isPrice, UpstreamError } from './fetch';

// Frankfurter v2 (keyless, open source): central-bank reference rates for 200+ currencies, some back to 1948.
// `GET /v2/rates?base=USD&quotes=XXX&from=…&to=…` answers a flat array of `{date, base, quote, rate}` rows, one
// per date its sources published (no carry forward); `GET /v2/currencies` lists the currencies it holds, each with
// the first and last date it has a rate for.

export const FX_HISTORY_API_NAME = 'frankfurter.dev';
/** What converted answers name as their rates' source (`fx.source`). */
export const FX_HISTORY_SOURCE = 'Frankfurter (frankfurter.dev), central-bank reference rates';

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const Rows = z.array(z.object({ date: IsoDay, base: z.string(), quote: z.string(), rate: z.number() }));

const Currency = z.object({
  iso_code: z.string().regex(/^[A-Z]{3}$/),
  start_date: IsoDay.nullable().optional(),
  end_date: IsoDay.nullable().optional(),
});
/** The list's rows are read one by one: a malformed row is dropped, not the list. */
const Currencies = z.array(z.unknown());

/** One published rate: `d` its date, `r` units of the currency per USD. */
export interface FxRate {
  d: string;
  r: number;
}

/** Years one daily range may span where Frankfurter computes it live (its MAX_DAILY_RANGE_YEARS). */
const MAX_RANGE_YEARS = 5;

/**
 * Every rate of `code` per USD published from `from` to `to` (inclusive), oldest first, one per date: one request,
 * or, when Frankfurter refuses so long a range (422: it computes the range live while its blended table is not
 * ready), one request per five years.
 */
export async function fetchFxRates(code: string, from: string, to: string): Promise<FxRate[]> {
  const long = Number(to.slice(0, 4)) - Number(from.slice(0, 4)) >= MAX_RANGE_YEARS;
  try {
    // Its refusal of a long range is an answer by design, not a failure on /status: the range is asked in pieces.
    return await fetchRange(code, from, to, long ? 422 : undefined);
  } catch (err) {
    if (!(err instanceof UpstreamError && err.status === 422) || !long) throw err;
    const rates: FxRate[] = [];
    for (let start = from; start <= to;) {
      const next = `${Number(start.slice(0, 4)) + MAX_RANGE_YEARS - 1}${start.slice(4)}`;
      const end = next < to ? next : to;
      rates.push(...(await fetchRange(code, start, end)));
      start = new Date(Date.parse(`${end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    }
    return rates;
  }
}

async function fetchRange(code: string, from: string, to: string, declined?: number): Promise<FxRate[]> {
  const url = `${config.upstream.fxHistory()}/v2/rates?base=USD&quotes=${code}&from=${from}&to=${to}`;
  const rows = await getValid(FX_HISTORY_API_NAME, url, Rows, declined);
  const byDate = new Map<string, number>();
  for (const row of rows) {
    // A row of another pair, or a rate that is not a positive number, means the answer is not what was asked.
    if (row.base !== 'USD' || row.quote !== code) throw new UpstreamError(FX_HISTORY_API_NAME, `row for ${row.base}/${row.quote}, asked USD/${code}`);
    if (!isPrice(row.rate)) throw new UpstreamError(FX_HISTORY_API_NAME, `rate ${row.rate} on ${row.date} is not a positive number`);
    if (row.date >= from && row.date <= to) byDate.set(row.date, row.rate);
  }
  return [...byDate].map(([d, r]) => ({ d, r })).sort((a, b) => (a.d < b.d ? -1 : 1));
}

/** The currencies with a history, each with its first and last rate's dates (null when the API does not say). */
export type FxCurrencies = Record<string, { from: string | null; to: string | null }>;

/** An empty list is a wrong answer, not a service without currencies. */
const MIN_CURRENCIES = 1;

export async function fetchFxCurrencies(): Promise<FxCurrencies> {
  const rows = await getValid(FX_HISTORY_API_NAME, `${config.upstream.fxHistory()}/v2/currencies`, Currencies);
  const list = rows.flatMap((row) => {
    const c = Currency.safeParse(row);
    return c.success ? [c.data] : [];
  });
  if (list.length < rows.length)
    console.warn(`[upstream] ${FX_HISTORY_API_NAME} currency list: ${rows.length - list.length} malformed row(s) dropped`);
  if (list.length < MIN_CURRENCIES) throw new UpstreamError(FX_HISTORY_API_NAME, `only ${list.length} currencies listed`);
  return Object.fromEntries(list.map((c) => [c.iso_code, { from: c.start_date ?? null, to: c.end_date ?? null }]));
}
