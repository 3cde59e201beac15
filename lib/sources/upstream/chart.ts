import { z } from 'zod';
import { config } from '../../core/config';
import { getJson, UpstreamError } from './fetch';

// Yahoo Finance chart API v8: GET /v8/finance/chart/{ticker}?range=&interval=. Arrays of OHLCV
// aligned by index; any entry may be null (a slot without trades), and a quiet period has no
// `timestamp` at all. An error body (`chart.error`) is a failure whatever the HTTP status.

export const CHART_API_NAME = 'Yahoo Finance';

/** One bar: t unix seconds; prices in the instrument's currency; v 0 where the market has none. */
export interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

export interface ChartData {
  bars: Bar[];
  meta: { symbol: string; currency: string | null; timezone: string | null; regularMarketTime: number | null; dataGranularity: string | null };
}

const Num = z.number().nullable().optional();
const Body = z.object({
  chart: z.object({
    result: z
      .array(
        z.object({
          meta: z
            .object({
              symbol: z.string().optional(),
              currency: z.string().nullable().optional(),
              exchangeTimezoneName: z.string().optional(),
              regularMarketTime: z.number().optional(),
              dataGranularity: z.string().optional(),
            })
            .passthrough(),
          timestamp: z.array(z.number()).optional(),
          indicators: z.object({
            quote: z.array(
              z.object({
                open: z.array(Num).optional(),
                high: z.array(Num).optional(),
                low: z.array(Num).optional(),
                close: z.array(Num).optional(),
                volume: z.array(Num).optional(),
              }),
            ),
          }),
        }),
      )
      .nullable(),
    error: z.object({ code: z.string().optional(), description: z.string().optional() }).nullable(),
  }),
});

const ok = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** Bars with a real close and real high/low/open, ascending, one per timestamp (the later one wins). */
export function parseChart(body: unknown, status = 200): ChartData {
  const parsed = Body.safeParse(body);
  const error = (body as { chart?: { error?: { description?: string } | null } })?.chart?.error;
  if (error) throw new UpstreamError(CHART_API_NAME, `${error.description ?? 'error'} (HTTP ${status})`, status);
  if (!parsed.success) throw new UpstreamError(CHART_API_NAME, `unexpected shape (HTTP ${status})`, status);
  if (status < 200 || status > 299) throw new UpstreamError(CHART_API_NAME, `HTTP ${status}`, status);
  const result = parsed.data.chart.result?.[0];
  if (!result) throw new UpstreamError(CHART_API_NAME, 'no result', status);
  const q = result.indicators.quote[0] ?? {};
  const byTime = new Map<number, Bar>();
  (result.timestamp ?? []).forEach((t, i) => {
    const [o, h, l, c] = [q.open?.[i], q.high?.[i], q.low?.[i], q.close?.[i]];
    // A bar missing any price is dropped, never filled in.
    if (!Number.isInteger(t) || !ok(c) || !ok(o) || !ok(h) || !ok(l)) return;
    const v = q.volume?.[i];
    byTime.set(t, { t, o, h, l, c, v: typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0 });
  });
  return {
    bars: [...byTime.values()].sort((a, b) => a.t - b.t),
    meta: {
      symbol: result.meta.symbol ?? '',
      currency: result.meta.currency ?? null,
      timezone: result.meta.exchangeTimezoneName ?? null,
      regularMarketTime: result.meta.regularMarketTime ?? null,
      dataGranularity: result.meta.dataGranularity ?? null,
    },
  };
}

export async function fetchChart(ticker: string, range: string, interval: string): Promise<ChartData> {
  const url = `${config.upstream.chart()}/v8/finance/chart/${encodeURIComponent(ticker)}?range=${range}&interval=${interval}&includePrePost=false`;
  const { status, body } = await getJson(CHART_API_NAME, url);
  return parseChart(body, status);
}

/**
 * Every daily bar the upstream holds for `ticker` (`period1=0` to now). Asked for the whole span, the upstream may
 * answer coarser bars than asked: an answer that does not say it is daily is a failure, never labelled daily.
 */
export async function fetchDailyMax(ticker: string): Promise<ChartData> {
  const now = Math.floor(Date.now() / 1000);
  const url = `${config.upstream.chart()}/v8/finance/chart/${encodeURIComponent(ticker)}?period1=0&period2=${now}&interval=1d&includePrePost=false`;
  const { status, body } = await getJson(CHART_API_NAME, url);
  const data = parseChart(body, status);
  if (data.meta.dataGranularity !== '1d')
    throw new UpstreamError(CHART_API_NAME, `asked for daily bars, got ${data.meta.dataGranularity ?? 'no granularity'}`, status);
  return data;
}
