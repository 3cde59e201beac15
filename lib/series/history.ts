import { retentionStart } from '../prices/bars';
import { toDataState } from '../sources/data-state';
import { ApiError } from '../core/errors';
import { sessionNow } from '../calendar/clock';
import { daysBefore } from '../calendar/dates';
import type { Session } from '../calendar/market';
import { Feed, type Sourced } from '../sources/freshness';
import type { DataState } from '../schemas/common';
import type { History, HistoryPoint, HistoryQuery } from '../schemas/history';
import { StoreDownError, type DailyBar } from '../store';
import { isUnavailable, unavailable, type Unavailable } from '../sources/unavailable';
import { metalById, metalByIntraday, type Metal, type MetalId } from '../reference/metals';
import { round } from '../reference/units';
import { fetchChart, type Bar } from '../sources/upstream/chart';
import { UpstreamError } from '../sources/upstream/fetch';
import { spotSeries, type HeldSeries } from './spot-series';

// GET /api/v1/history: 5 years of daily gold from the COMEX front-month future GC=F (no keyless
// source serves daily XAU/USD spot with true highs and lows), or any metal's daily spot bars
// (lib/series/spot-series.ts), with the statistics of docs/contract.md. Both are computed once per
// fetch or version: a request adds only its freshness, looks `date=` up, and reuses the points' JSON.

export const HISTORY_SOURCE = 'COMEX gold futures GC=F, daily, via Yahoo Finance';
/** What a metal's spot series is (`source`). */
export function spotHistorySource(metal: Metal): string {
  return `Daily spot bars recorded by this service from the ${metal.symbol}/USD spot prices it served (open, high, low and close of each New York session), with any bars the operator imported`;
}

/** Trading date of a bar in the exchange's time zone. */
function dateIn(timeZone: string): (t: number) => string {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (t) => f.format(new Date(t * 1000));
}

/**
 * One point per trading date, oldest first. A session's last bar is stamped with its latest
 * trade time, not the session start, so two bars can share a date: the later one wins.
 */
export function toDaily(bars: Bar[], timeZone = 'America/New_York'): HistoryPoint[] {
  const date = dateIn(timeZone);
  const byDate = new Map<string, HistoryPoint>();
  for (const b of bars) byDate.set(date(b.t), { d: date(b.t), c: b.c, h: b.h, l: b.l });
  return [...byDate.values()].sort((a, b) => (a.d < b.d ? -1 : 1));
}

type Stats = Pick<History, 'high_52w' | 'low_52w' | 'ranges' | 'return_ytd_pct' | 'return_1y_pct'>;
type Daily = Pick<HistoryPoint, 'd' | 'c' | 'h' | 'l'>;

/** 52-week high/low, trailing ranges and returns, counted back from the latest point; from unrounded points, rounded once on output. */
export function historyStats(points: readonly Daily[]): Stats {
  const last = points[points.length - 1];
  const span = (days: number) => {
    if (!last) return { low: null, high: null };
    const from = daysBefore(last.d, days);
    const within = points.filter((p) => p.d >= from);
    return { low: round(Math.min(...within.map((p) => p.l)), 2), high: round(Math.max(...within.map((p) => p.h)), 2) };
  };
  const pct = (base: Daily | undefined) => (last && base ? round((last.c / base.c - 1) * 100, 2) : null);
  const year = span(365);
  const prevYearEnd = last ? points.filter((p) => p.d < `${last.d.slice(0, 4)}-01-01`).pop() : undefined;
  const yearAgo = last ? points.filter((p) => p.d <= daysBefore(last.d, 365)).pop() : undefined;
  return {
    high_52w: year.high,
    low_52w: year.low,
    ranges: { day: last ? { low: round(last.l, 2), high: round(last.h, 2) } : { low: null, high: null }, week: span(7), month: span(30), year },
    return_ytd_pct: pct(prevYearEnd),
    return_1y_pct: pct(yearAgo),
  };
}

async function fetchHistory(): Promise<Sourced<HistoryPoint[]>> {
  const { bars, meta } = await fetchChart('GC=F', '5y', '1d');
  const points = toDaily(bars, meta.timezone ?? 'America/New_York');
  if (points.length < 2) throw new UpstreamError('Yahoo Finance', 'no daily bars');
  const fetchedAt = Date.now();
  return { value: points, asOf: Math.min(bars[bars.length - 1].t * 1000, fetchedAt), fetchedAt };
}

const feed = new Feed<HistoryPoint[]>({ name: 'history', ttlS: 6 * 3600, fetch: fetchHistory });

type Series = Omit<History, 'data_state' | 'updated_at'>;

/** The rounded points and statistics of one fetched series, computed once per fetch. */
let computed: { from: HistoryPoint[]; series: Series } | null = null;
function series(points: HistoryPoint[]): Series {
  if (computed?.from !== points) {
    const rounded = points.map((p) => ({ d: p.d, c: round(p.c, 2), h: round(p.h, 2), l: round(p.l, 2) }));
    computed = {
      from: points,
      series: { symbol: 'XAUUSD', interval: 'daily', source: HISTORY_SOURCE, points: rounded, count: rounded.length, ...historyStats(points) },
    };
  }
  return computed.series;
}

/** The point of a series dated `date`: a lookup in an index built once per list of points. */
const byDate = new WeakMap<readonly HistoryPoint[], Map<string, HistoryPoint>>();
export function pointOn(points: readonly HistoryPoint[], date: string): HistoryPoint | undefined {
  let index = byDate.get(points);
  if (!index) byDate.set(points, (index = new Map(points.map((p) => [p.d, p]))));
  return index.get(date);
}

/** The history answer for a query: the futures series (default) or a metal's spot bars, whole or the one point of `date`. */
export async function getHistoryFor(query: Partial<HistoryQuery>): Promise<History | Unavailable> {
  const spot = query.series === 'spot';
  const full = spot ? await getSpotHistory(metalByIntraday(query.symbol ?? 'xau').id) : await getHistory();
  if (!query.date || isUnavailable(full)) return full;
  const point = pointOn(full.points, query.date);
  if (!point) throw new ApiError(404, `No ${spot ? 'spot' : 'futures'} point dated ${query.date}`, { data_state: full.data_state });
  return { ...full, points: [point], count: 1 };
}

// A history answer's points are most of its JSON, and they change only with the series: their text is
// made once per list of points and set into each answer, whose freshness alone is new.
const pointsJson = new WeakMap<readonly HistoryPoint[], string>();
/** A string no answer holds, put where the points go and replaced by their JSON. */
const POINTS_MARK = '\u0000points\u0000';
const POINTS_MARK_JSON = JSON.stringify(POINTS_MARK);

/**
 * A history answer as JSON in three parts, which joined are the text JSON.stringify gives: what comes before the
 * points, the points (the same string for every answer of one series), what comes after.
 */
export function historyJsonParts(body: History): [head: string, points: string, tail: string] {
  let points = pointsJson.get(body.points);
  if (points === undefined) pointsJson.set(body.points, (points = JSON.stringify(body.points)));
  const [head, tail] = JSON.stringify({ ...body, points: POINTS_MARK }).split(POINTS_MARK_JSON);
  return [head, points, tail];
}

/** A history answer as JSON, the same text JSON.stringify gives, with the points' part reused. */
export function historyJson(body: History): string {
  return body.points.length < 2 ? JSON.stringify(body) : historyJsonParts(body).join('');
}

/** A latest spot bar within this many days of the current session keeps the series fresh (a long weekend). */
const SPOT_FRESH_DAYS = 4;

/** What every answer of one held series in one session shares: all but its freshness. */
interface SpotView {
  key: string;
  series: Series;
  last: DailyBar | undefined;
}
const views = new WeakMap<HeldSeries, SpotView>();

/**
 * The points and statistics of a held series, computed once per version and session: which bars lie within the
 * retention and whether the newest is final depend on the session, nothing else on the moment of the request.
 */
function spotView(metal: Metal, held: HeldSeries, session: Session): SpotView {
  const today = session.date;
  const key = `${today}|${session.open}`;
  const kept = views.get(held);
  if (kept?.key === key) return kept;
  const from = retentionStart(today);
  const bars = held.bars.filter((b) => b.d >= from);
  // The session in progress is not final: its close is the latest price and its range can still widen.
  const final = (d: string) => d < today || (d === today && !session.open);
  const points = bars.map((b) => ({
    d: b.d,
    o: round(b.o, 2),
    c: round(b.c, 2),
    h: round(b.h, 2),
    l: round(b.l, 2),
    origin: b.origin,
    final: final(b.d),
    n: b.origin === 'recorded' ? b.n : null,
  }));
  const view: SpotView = {
    key,
    series: {
      symbol: `${metal.symbol}USD`,
      interval: 'daily',
      source: spotHistorySource(metal),
      points,
      count: points.length,
      ...historyStats(bars),
    },
    last: bars[bars.length - 1],
  };
  views.set(held, view);
  return view;
}

/** The daily spot series of a metal: every bar kept (recorded and imported), oldest first, with the statistics of the futures series. */
export async function getSpotHistory(metal: MetalId = 'gold'): Promise<History> {
  const now = Date.now();
  const session = sessionNow(now);
  let held: HeldSeries;
  try {
    held = await spotSeries(metal, now);
  } catch (err) {
    if (err instanceof StoreDownError) throw new ApiError(503, 'Daily spot bars unavailable: the store is not answering. Retry shortly.');
    throw err;
  }
  const { series, last } = spotView(metalById(metal), held, session);
  let data_state: DataState;
  if (!last) data_state = { status: 'unavailable', as_of: null, source: null, age_seconds: null };
  else {
    // A recorded bar is as of its last observation; an imported one as of its session's close (17:00 New York, about 22:00 UTC).
    const asOf = last.t1 || Date.parse(`${last.d}T22:00:00Z`);
    const fresh = last.d >= daysBefore(session.date, SPOT_FRESH_DAYS);
    data_state = toDataState({ status: fresh ? 'fresh' : 'stale', asOf: Math.min(asOf, now), source: 'cache' }, now);
  }
  return { ...series, data_state, updated_at: new Date(now).toISOString() };
}

export async function getHistory(): Promise<History | Unavailable> {
  const reading = await feed.read();
  const now = Date.now();
  const data_state = toDataState(reading, now);
  if (!reading.value) {
    return unavailable(
      `Daily history unavailable: the upstream is down (${feed.lastError ?? 'no answer'}) and no series has been fetched yet. Retry shortly.`,
      data_state,
      now,
    );
  }
  return { ...series(reading.value), data_state, updated_at: new Date(now).toISOString() };
}

export async function historyState(): Promise<DataState> {
  return toDataState(await feed.peek());
}
