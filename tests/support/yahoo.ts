import { fixture, fixtureText } from './fake-upstream';

// Builds chart-upstream bodies (Yahoo v8 shape) from real data, for the history and chart tests.

export interface OhlcRow {
  d: string;
  o: number;
  h: number;
  l: number;
  c: number;
}

/** The rows of a daily file whose first five columns are date, open, high, low, close (after a header), read the plain way. */
export function ohlcRows(csv: string): OhlcRow[] {
  return csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [d, o, h, l, c] = line.split(',');
      return { d, o: Number(o), h: Number(h), l: Number(l), c: Number(c) };
    });
}

/** The real daily XAU/USD rows of tests/fixtures/gold-daily-ohlc-usd.csv. */
export function dailyRows(): OhlcRow[] {
  return ohlcRows(fixtureText('gold-daily-ohlc-usd.csv'));
}

// Made once: building a formatter costs about a millisecond, and five years of bars need thousands of look-ups.
const nyHour = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' });

/** Unix seconds of 00:00 in New York on `date` (04:00Z in summer time, 05:00Z in winter). */
export function nyMidnight(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  for (const hour of [4, 5]) {
    const t = Date.UTC(y, m - 1, d, hour) / 1000;
    const h = nyHour.format(new Date(t * 1000));
    if (Number(h) === 0) return t;
  }
  throw new Error(`no New York midnight for ${date}`);
}

/** A chart body: the recorded GC=F `meta` around the given bars. */
export function chartBody(bars: { t: number; o: number | null; h: number | null; l: number | null; c: number | null; v?: number | null }[]) {
  const meta = { ...fixture('yahoo-chart-GCF-6mo-1wk.json').chart.result[0].meta, dataGranularity: '1d', range: '5y' };
  return {
    chart: {
      result: [
        {
          meta,
          timestamp: bars.map((b) => b.t),
          indicators: {
            quote: [
              {
                open: bars.map((b) => b.o),
                high: bars.map((b) => b.h),
                low: bars.map((b) => b.l),
                close: bars.map((b) => b.c),
                volume: bars.map((b) => b.v ?? 0),
              },
            ],
          },
        },
      ],
      error: null,
    },
  };
}

/** Recorded chart-upstream bodies by ticker (6 months of weekly bars, 2026). */
const RECORDED_WEEKLY: Record<string, string> = {
  'GC=F': 'yahoo-chart-GCF-6mo-1wk.json',
  '^GSPC': 'yahoo-chart-GSPC-6mo-1wk.json',
  '^IXIC': 'yahoo-chart-IXIC-6mo-1wk.json',
  'EURUSD=X': 'yahoo-chart-EURUSDX-6mo-1wk.json',
  'CL=F': 'yahoo-chart-CLF-6mo-1wk.json',
};

/** Recorded chart-upstream bodies by ticker: the weekly ones above, and three days of Bitcoin. */
export const RECORDED: Record<string, unknown> = {
  ...Object.fromEntries(Object.entries(RECORDED_WEEKLY).map(([ticker, file]) => [ticker, fixture(file)])),
  'BTC-USD': fixture('yahoo-chart-BTC-USD-2020-01-01_03-1d.recording.json').response.bodyJson,
};

/**
 * A chart upstream built from real data: daily requests get the real daily XAU/USD rows of the
 * last five years (GC=F's shape), other requests the recorded weekly body of their ticker, and
 * tickers without a recording the upstream's real 404 body (the fake's default).
 */
export function realChartHandler(from = '2021-04-16'): (ticker: string, q: URLSearchParams) => { status: number; body: unknown } | null {
  const rows = dailyRows().filter((r) => r.d >= from);
  const last = rows[rows.length - 1].d;
  const DAYS: Record<string, number> = { '5d': 7, '1mo': 31, '3mo': 92, '6mo': 183, '1y': 366, '2y': 731 };
  return (ticker, q) => {
    if (ticker === 'GC=F' && q.get('interval') === '1d') {
      // The range counted back from the last real row, as the upstream would cut it.
      const days = DAYS[q.get('range') ?? ''];
      const cut = days ? rows.filter((r) => Date.parse(r.d) >= Date.parse(last) - days * 86_400_000) : rows;
      return { status: 200, body: chartBody(cut.map((r) => ({ t: nyMidnight(r.d), o: r.o, h: r.h, l: r.l, c: r.c }))) };
    }
    const file = RECORDED_WEEKLY[ticker];
    return file ? { status: 200, body: fixture(file) } : null;
  };
}

/**
 * Five years of real daily XAU/USD rows back from the last (what the upstream holds here, and history's default
 * window), three of them sent with a null close (slots without trades, which must be dropped): the rows `kept`, the
 * `nullDates`, and a chart upstream answering GC=F's daily `period1` requests with them.
 */
export function fiveYearsWithNullCloses() {
  const rows = dailyRows().filter((r) => r.d >= '2021-04-16');
  const nullDates = new Set([rows[100].d, rows[700].d, rows[rows.length - 3].d]);
  const kept = rows.filter((r) => !nullDates.has(r.d));
  const body = chartBody(rows.map((r) => ({ t: nyMidnight(r.d), o: r.o, h: r.h, l: r.l, c: nullDates.has(r.d) ? null : r.c })));
  const handler = (ticker: string, q: URLSearchParams) =>
    ticker === 'GC=F' && q.has('period1') && q.get('interval') === '1d' ? { status: 200, body } : null;
  return { kept, nullDates, handler };
}

/** Every real daily XAU/USD row the fixtures hold, 2007-06-22 to 2026-04-16 (three files of one source, SOURCES.md). */
export function longDailyRows(): OhlcRow[] {
  return [
    ...ohlcRows(fixtureText('gold-daily-ohlc-usd-2007-2016.csv')),
    ...ohlcRows(fixtureText('gold-daily-ohlc-usd-2016-2019.csv')),
    ...dailyRows(),
  ];
}

/**
 * A chart upstream whose GC=F daily series is nineteen years of real rows (the futures series' whole reach, decisions
 * §24), cut by `period1`/`period2` as the upstream cuts it; other requests as `realChartHandler`.
 */
export function longChartHandler(): (ticker: string, q: URLSearchParams) => { status: number; body: unknown } | null {
  const rows = longDailyRows().map((r) => ({ t: nyMidnight(r.d), o: r.o, h: r.h, l: r.l, c: r.c }));
  const other = realChartHandler();
  return (ticker, q) => {
    if (ticker !== 'GC=F' || q.get('interval') !== '1d' || !q.has('period1')) return other(ticker, q);
    const from = Number(q.get('period1'));
    const to = Number(q.get('period2') ?? Infinity);
    return { status: 200, body: chartBody(rows.filter((b) => b.t >= from && b.t <= to)) };
  };
}
