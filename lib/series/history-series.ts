import { retentionStart } from '../prices/bars';
import { toDataState } from '../sources/data-state';
import { ApiError } from '../core/errors';
import { sessionNow } from '../calendar/clock';
import { daysBefore } from '../calendar/dates';
import type { Session } from '../calendar/market';
import { Feed, type Sourced } from '../sources/freshness';
import type { DataState } from '../schemas/common';
import type { History, HistoryQuery } from '../schemas/history';
import { StoreDownError, type DailyBar } from '../store';
import { unavailable, type Unavailable } from '../sources/unavailable';
import { metalById, metalByIntraday, type Metal, type MetalId } from '../reference/metals';
import { fetchDailyMax, type Bar } from '../sources/upstream/chart';
import { UpstreamError } from '../sources/upstream/fetch';
import { DEFAULT_LONDON_TIME, londonTimeOf, type LondonTime } from '../reference/london-times';
import { idOf, pointsBytes, seriesCache, SLOT_BYTES } from './cache-budget';
import { roundPoint, type RawPoint, type SeriesKind } from './history-points';
import { asDaily, historyStats, type Daily, type Stats } from './history-stats';
import { londonSeriesOf, londonSource } from './london-series';
import { getMonthlySeries, type MonthlyMetal } from './monthly';
import { spotSeries, type HeldSeries } from './spot-series';

// Step 1 of a history answer (lib/series/history.ts), which series: every daily bar of the COMEX front-month gold
// future GC=F (no keyless source serves daily XAU/USD spot with true highs and lows), any metal's daily spot bars
// (lib/series/spot-series.ts), the World Bank's monthly averages (lib/series/monthly.ts) or a metal's London-time
// values (lib/series/london-series.ts), each as its USD per troy ounce answer with its freshness, made once per version of
// the series within the series budget (lib/series/cache-budget.ts).

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
export function toDaily(bars: Bar[], timeZone = 'America/New_York'): DailyPoint[] {
  const date = dateIn(timeZone);
  const byDate = new Map<string, DailyPoint>();
  for (const b of bars) byDate.set(date(b.t), { d: date(b.t), o: b.o, c: b.c, h: b.h, l: b.l });
  return [...byDate.values()].sort((a, b) => (a.d < b.d ? -1 : 1));
}

/** A futures day as fetched, unrounded, USD per troy ounce. */
type DailyPoint = Daily & { o: number };

async function fetchHistory(): Promise<Sourced<DailyPoint[]>> {
  const { bars, meta } = await fetchDailyMax('GC=F');
  const points = toDaily(bars, meta.timezone ?? 'America/New_York');
  if (points.length < 2) throw new UpstreamError('Yahoo Finance', 'no daily bars');
  const fetchedAt = Date.now();
  return { value: points, asOf: Math.min(bars[bars.length - 1].t * 1000, fetchedAt), fetchedAt };
}

const feed = new Feed<DailyPoint[]>({ name: 'history', ttlS: 6 * 3600, fetch: fetchHistory });

/** A series' USD per troy ounce answer: all but what each request adds. */
export type Series = Omit<History, 'data_state' | 'updated_at' | 'period' | 'series'>;

/** A series' USD per troy ounce answer as kept: its rounded points and statistics, and their dates. */
interface HeldUsdSeries {
  usd: Series;
  dates: string[];
}

/** What a kept series costs beyond its points: the dates' slots and the statistics. */
const heldBytes = (h: { usd: Series; dates: readonly string[] }) => pointsBytes(h.usd.points) + h.dates.length * SLOT_BYTES + 1024;

/** The USD answer of a series: its points rounded, its statistics. */
function heldOf(raw: readonly RawPoint[], usd: Omit<Series, 'count' | keyof Stats>, stats: Stats): HeldUsdSeries {
  return { usd: { ...usd, count: usd.points.length, ...stats }, dates: raw.map((p) => p.d) };
}

/** The rounded points and statistics of one fetched futures series, computed once per fetch (within the budget). */
function futuresHeld(points: DailyPoint[]): { key: string; held: HeldUsdSeries } {
  const key = `futures|${idOf(points)}`;
  const held = seriesCache().take(
    key,
    () => {
      const rounded = points.map((p) => roundPoint(p, 'futures', 'oz')) as Series['points'];
      return heldOf(points, { symbol: 'XAUUSD', interval: 'daily', source: HISTORY_SOURCE, points: rounded }, historyStats(points));
    },
    heldBytes,
  );
  return { key, held };
}

/** One series as held: its unrounded USD per troy ounce points, and its USD per troy ounce answer (points and statistics). */
export interface Base extends HeldUsdSeries {
  kind: SeriesKind;
  /** Names this version of the series in the budget's keys. */
  key: string;
  raw: readonly RawPoint[];
  data_state: DataState;
  /** The monthly series' licence, attribution and description; the london series' time. */
  extra?: Pick<History, 'license' | 'attribution' | 'description' | 'time' | 'london_time'>;
}

/** The series a query asks for, as held, or why it cannot be had. */
export async function baseFor(query: Partial<HistoryQuery>, now: number): Promise<Base | Unavailable> {
  if (query.series === 'spot') return spotBase(metalByIntraday(query.symbol ?? 'xau').id, now);
  if (query.series === 'monthly') return monthlyBase(metalByIntraday(query.symbol ?? 'xau').id as MonthlyMetal);
  if (query.series === 'london') {
    const metal = metalByIntraday(query.symbol ?? 'xau').id;
    return londonBase(metal, query.time ?? DEFAULT_LONDON_TIME[metal], now);
  }
  return futuresBase(now);
}

/** A latest spot bar within this many days of the current session keeps the series fresh (a long weekend). */
const SPOT_FRESH_DAYS = 4;

/** What every answer of one held series in one session shares: all but its freshness. */
interface SpotView extends HeldUsdSeries {
  key: string;
  /** The bars within the retention, unrounded, with `final`: what conversion starts from. */
  raw: RawPoint[];
  last: DailyBar | undefined;
}

/**
 * The points and statistics of a held series, computed once per version and session (within the budget): which bars
 * lie within the retention and whether the newest is final depend on the session, nothing else on the moment of the request.
 */
function spotView(metal: Metal, held: HeldSeries, session: Session): SpotView {
  const today = session.date;
  const key = `spot|${idOf(held)}|${today}|${session.open}`;
  return seriesCache().take(
    key,
    () => makeSpotView(key, metal, held, session),
    (v) => heldBytes(v) + pointsBytes(v.raw),
  );
}

function makeSpotView(key: string, metal: Metal, held: HeldSeries, session: Session): SpotView {
  const today = session.date;
  const from = retentionStart(today);
  const bars = held.bars.filter((b) => b.d >= from);
  // The session in progress is not final: its close is the latest price and its range can still widen.
  const final = (d: string) => d < today || (d === today && !session.open);
  const raw = bars.map((b) => ({
    d: b.d,
    o: b.o,
    c: b.c,
    h: b.h,
    l: b.l,
    origin: b.origin,
    final: final(b.d),
    n: b.origin === 'recorded' ? b.n : null,
  }));
  const points = raw.map((p) => roundPoint(p, 'spot', 'oz')) as Series['points'];
  return {
    key,
    raw,
    ...heldOf(raw, { symbol: `${metal.symbol}USD`, interval: 'daily', source: spotHistorySource(metal), points }, historyStats(bars)),
    last: bars[bars.length - 1],
  };
}

async function spotBase(metal: MetalId, now: number): Promise<Base> {
  const session = sessionNow(now);
  let held: HeldSeries;
  try {
    held = await spotSeries(metal, now);
  } catch (err) {
    if (err instanceof StoreDownError) throw new ApiError(503, 'Daily spot bars unavailable: the store is not answering. Retry shortly.');
    throw err;
  }
  const view = spotView(metalById(metal), held, session);
  const last = view.last;
  let data_state: DataState;
  if (!last) data_state = { status: 'unavailable', as_of: null, source: null, age_seconds: null };
  else {
    // A recorded bar is as of its last observation; an imported one as of its session's close (17:00 New York, about 22:00 UTC).
    const asOf = last.t1 || Date.parse(`${last.d}T22:00:00Z`);
    const fresh = last.d >= daysBefore(session.date, SPOT_FRESH_DAYS);
    data_state = toDataState({ status: fresh ? 'fresh' : 'stale', asOf: Math.min(asOf, now), source: 'cache' }, now);
  }
  return { kind: 'spot', key: view.key, raw: view.raw, usd: view.usd, dates: view.dates, data_state };
}

/**
 * A futures series whose latest bar is more than this many days before the current session is stale however recently
 * it was fetched: GC=F trades every weekday, so the upstream has stopped bringing new bars (a long weekend is 4 days).
 */
const FUTURES_FRESH_DAYS = 4;

async function futuresBase(now: number): Promise<Base | Unavailable> {
  const reading = await feed.read();
  let data_state = toDataState(reading, now);
  const latest = reading.value?.[reading.value.length - 1];
  if (latest && data_state.status === 'fresh' && latest.d < daysBefore(sessionNow(now).date, FUTURES_FRESH_DAYS)) {
    data_state = { ...data_state, status: 'stale' };
  }
  if (!reading.value) {
    return unavailable(
      `Daily history unavailable: the upstream is down (${feed.lastError ?? 'no answer'}) and no series has been fetched yet. Retry shortly.`,
      data_state,
      now,
    );
  }
  const { key, held } = futuresHeld(reading.value);
  return { kind: 'futures', key, raw: reading.value, ...held, data_state };
}

/** A kept series whose points as read are not themselves the unrounded points conversion starts from. */
type HeldUsdSeriesWithRaw = HeldUsdSeries & { raw: RawPoint[] };
const heldRawBytes = (h: HeldUsdSeriesWithRaw) => heldBytes(h) + pointsBytes(h.raw);

/** The USD answer of a monthly series, computed once per series read (within the budget). */
async function monthlyBase(metal: MonthlyMetal): Promise<Base> {
  const m = await getMonthlySeries(metal);
  const key = `monthly|${idOf(m.points)}`;
  const held = seriesCache().take(
    key,
    (): HeldUsdSeriesWithRaw => {
      const raw = m.points.map((p) => ({ d: p.d, c: p.c }));
      const points = raw.map((p) => roundPoint(p, 'monthly', 'oz')) as Series['points'];
      return {
        raw,
        ...heldOf(raw, { symbol: `${metalById(metal).symbol}USD`, interval: 'monthly', source: m.source, points }, historyStats(asDaily(raw))),
      };
    },
    heldRawBytes,
  );
  return {
    kind: 'monthly',
    key,
    ...held,
    data_state: m.data_state,
    extra: { license: m.license, attribution: m.attribution, description: m.description },
  };
}

/** A metal's values at a London time (lib/series/london-series.ts), as a series of the history answer. */
async function londonBase(metal: MetalId, time: LondonTime, now: number): Promise<Base> {
  let read: Awaited<ReturnType<typeof londonSeriesOf>>;
  try {
    read = await londonSeriesOf(metal, time, now);
  } catch (err) {
    if (err instanceof StoreDownError) throw new ApiError(503, 'London-time values unavailable: the store is not answering. Retry shortly.');
    throw err;
  }
  const key = `london|${idOf(read.values)}`;
  const held = seriesCache().take(
    key,
    (): HeldUsdSeriesWithRaw => {
      const raw = read.values.map((v) => ({ d: v.d, c: v.p, t: new Date(v.t).toISOString() }));
      const points = raw.map((p) => roundPoint(p, 'london', 'oz')) as Series['points'];
      return {
        raw,
        ...heldOf(
          raw,
          { symbol: `${metalById(metal).symbol}USD`, interval: 'daily', source: londonSource(metal, time), points },
          historyStats(asDaily(raw)),
        ),
      };
    },
    heldRawBytes,
  );
  return { kind: 'london', key, ...held, data_state: read.data_state, extra: { time, london_time: londonTimeOf(metal, time) } };
}

export async function historyState(): Promise<DataState> {
  return toDataState(await feed.peek());
}
