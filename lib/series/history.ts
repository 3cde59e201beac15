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
import { fetchDailyMax, type Bar } from '../sources/upstream/chart';
import { fxCurrencies, readFxSeries, type FxReading, type FxSeries } from '../sources/fx-history';
import { FX_HISTORY_API_NAME, FX_HISTORY_SOURCE } from '../sources/upstream/fx-history';
import { NOTHING } from '../sources/unavailable';
import { UNIT_DECIMALS, unitEntry, type Unit } from '../reference/units';
import { todayUtc, type HistoryRange } from '../schemas/history';
import { getMonthlySeries, type MonthlyMetal } from './monthly';
import {
  convertDaily,
  convertMonthly,
  firstOnOrAfter,
  groupPoints,
  lastOnOrBefore,
  periodOf,
  roundPoint,
  type OutPoint,
  type Period,
  type RawPoint,
  type SeriesKind,
} from './history-view';
import { UpstreamError } from '../sources/upstream/fetch';
import { spotSeries, type HeldSeries } from './spot-series';
import { londonSeriesOf, londonSource } from './london';
import { bytesOfBuffer, idOf, pointsBytes, seriesCache, SLOT_BYTES } from './cache-budget';
import { DEFAULT_LONDON_TIME, londonTimeOf, type LondonTime } from '../reference/london-times';

// GET /api/v1/history: every daily bar of the COMEX front-month gold future GC=F (no keyless source
// serves daily XAU/USD spot with true highs and lows), any metal's daily spot bars
// (lib/series/spot-series.ts), or the World Bank's monthly averages (lib/series/monthly.ts), with the
// statistics of docs/contract.md, in any currency and unit (lib/series/history-view.ts). Each series is
// converted once per version, currency and unit, and each named range cut once: a request adds only its
// freshness, looks `date=` up, and reuses the points' JSON. All of that is kept within one byte budget
// (lib/series/cache-budget.ts, `SERIES_CACHE_MB`): what it lets go is made again, the same, when next asked for.

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

type Stats = Pick<History, 'high_52w' | 'low_52w' | 'ranges' | 'return_ytd_pct' | 'return_1y_pct'>;
type Daily = { d: string; c: number; h: number; l: number };
/** A futures day as fetched, unrounded, USD per troy ounce. */
type DailyPoint = Daily & { o: number };

/** 52-week high/low, trailing ranges and returns, counted back from the latest point; from unrounded points, rounded once on output (`dp` decimals). */
export function historyStats(points: readonly Daily[], dp = 2): Stats {
  const last = points[points.length - 1];
  const span = (days: number) => {
    if (!last) return { low: null, high: null };
    const from = daysBefore(last.d, days);
    const within = points.filter((p) => p.d >= from);
    let low = Infinity;
    let high = -Infinity;
    for (const p of within) {
      low = Math.min(low, p.l);
      high = Math.max(high, p.h);
    }
    return { low: round(low, dp), high: round(high, dp) };
  };
  const pct = (base: Daily | undefined) => (last && base ? round((last.c / base.c - 1) * 100, 2) : null);
  const year = span(365);
  const prevYearEnd = last ? points.filter((p) => p.d < `${last.d.slice(0, 4)}-01-01`).pop() : undefined;
  const yearAgo = last ? points.filter((p) => p.d <= daysBefore(last.d, 365)).pop() : undefined;
  return {
    high_52w: year.high,
    low_52w: year.low,
    ranges: { day: last ? { low: round(last.l, dp), high: round(last.h, dp) } : { low: null, high: null }, week: span(7), month: span(30), year },
    return_ytd_pct: pct(prevYearEnd),
    return_1y_pct: pct(yearAgo),
  };
}

async function fetchHistory(): Promise<Sourced<DailyPoint[]>> {
  const { bars, meta } = await fetchDailyMax('GC=F');
  const points = toDaily(bars, meta.timezone ?? 'America/New_York');
  if (points.length < 2) throw new UpstreamError('Yahoo Finance', 'no daily bars');
  const fetchedAt = Date.now();
  return { value: points, asOf: Math.min(bars[bars.length - 1].t * 1000, fetchedAt), fetchedAt };
}

const feed = new Feed<DailyPoint[]>({ name: 'history', ttlS: 6 * 3600, fetch: fetchHistory });

type Series = Omit<History, 'data_state' | 'updated_at' | 'period' | 'series'>;

/** A series' USD per troy ounce answer as kept: its rounded points and statistics, their dates and period. */
interface Held {
  usd: Series;
  dates: string[];
  period: Period;
}

/** What a kept series costs beyond its points: the dates' slots, the statistics and period. */
const heldBytes = (h: { usd: Series; dates: readonly string[] }) => pointsBytes(h.usd.points) + h.dates.length * SLOT_BYTES + 1024;

/** The USD answer of a series: its points rounded, its statistics and period. */
function heldOf(raw: readonly RawPoint[], usd: Omit<Series, 'count' | keyof Stats>, stats: Stats): Held {
  return { usd: { ...usd, count: usd.points.length, ...stats }, dates: raw.map((p) => p.d), period: periodOf(usd.points as OutPoint[], 'oz') };
}

/** The rounded points and statistics of one fetched futures series, computed once per fetch (within the budget). */
function futuresHeld(points: DailyPoint[]): { key: string; held: Held } {
  const key = `futures|${idOf(points)}`;
  const held = seriesCache().take(
    key,
    () => {
      const rounded = points.map((p) => ({ d: p.d, c: round(p.c, 2), h: round(p.h, 2), l: round(p.l, 2) }));
      return heldOf(points, { symbol: 'XAUUSD', interval: 'daily', source: HISTORY_SOURCE, points: rounded }, historyStats(points));
    },
    heldBytes,
  );
  return { key, held };
}

/** One series as held: its unrounded USD per troy ounce points, and its USD per troy ounce answer (points and statistics). */
interface Base extends Held {
  kind: SeriesKind;
  /** Names this version of the series in the budget's keys. */
  key: string;
  raw: readonly RawPoint[];
  data_state: DataState;
  /** The monthly series' licence, attribution and description; the london series' time. */
  extra?: Pick<History, 'license' | 'attribution' | 'description' | 'time' | 'london_time'>;
}

/** What every answer of one series in one currency and unit shares: the points, their dates, the statistics, the whole series' period. */
interface View {
  /** Names the view in the budget's keys. */
  key: string;
  points: OutPoint[];
  raw: readonly RawPoint[];
  dates: readonly string[];
  stats: Stats;
  period: Period;
  /** Dates of the points left out for want of a rate within 7 days of them (a gap in the currency's rates), oldest first. */
  leftOut: string[];
}

/** A window's points and their period. */
interface Cut {
  points: OutPoint[];
  period: Period;
}

const STAT_KEYS = ['high_52w', 'low_52w', 'ranges', 'return_ytd_pct', 'return_1y_pct'] as const;
const statsOf = (s: Series): Stats => Object.fromEntries(STAT_KEYS.map((k) => [k, s[k]])) as Stats;
/** Every point as a daily bar for the statistics: the monthly series has a close alone. */
const asDaily = (raw: readonly RawPoint[]): Daily[] => raw.map((p) => ({ d: p.d, c: p.c, h: p.h ?? p.c, l: p.l ?? p.c }));

/** What a view keeps alive: its converted points twice (unrounded and as answered), their dates, the dates left out. */
const viewBytes = (v: View) => pointsBytes(v.points) + pointsBytes(v.raw) + (v.dates.length + v.leftOut.length) * SLOT_BYTES + 1024;

/**
 * A series in a currency and unit: the USD per troy ounce one is the series as held; any other is converted once per
 * version of the series and of the rates (a currency's rates array is new with every new day), within the budget.
 */
function viewOf(base: Base, fx: FxSeries | null, unit: Unit, until: string | null): View {
  if (!fx && unit === 'oz') {
    const view = {
      key: `${base.key}|USD|oz`,
      points: base.usd.points as OutPoint[],
      raw: base.raw,
      dates: base.dates,
      stats: statsOf(base.usd),
      period: base.period,
      leftOut: [],
    };
    return keep(view.key, view.points, view);
  }
  const key = `${base.key}|${fx ? idOf(fx.r) : 'USD'}|${unit}|${until ?? ''}`;
  const view = seriesCache().take(
    key,
    (): View => {
      const { points: raw, leftOut } = base.kind === 'monthly' ? convertMonthly(base.raw, fx, unit, until) : convertDaily(base.raw, fx, unit, until);
      const points = raw.map((p) => roundPoint(p, base.kind, unit));
      return {
        key,
        points,
        raw,
        dates: raw.map((p) => p.d),
        stats: historyStats(asDaily(raw), UNIT_DECIMALS[unit]),
        period: periodOf(points, unit),
        leftOut,
      };
    },
    viewBytes,
  );
  return keep(key, view.points, view);
}

const RANGE_DAYS: Record<Exclude<HistoryRange, 'ytd' | 'max'>, number> = {
  '1m': 30,
  '3m': 91,
  '6m': 182,
  '1y': 365,
  '2y': 730,
  '5y': 1826,
  '10y': 3652,
};

/** The first date of `range`, counted back from the latest point (ytd: 1 January of its year; max: none). */
export function historyRangeStart(range: HistoryRange, latest: string): string | undefined {
  if (range === 'max') return undefined;
  return range === 'ytd' ? `${latest.slice(0, 4)}-01-01` : daysBefore(latest, RANGE_DAYS[range]);
}

/** The first date of the window asked (undefined: from the first point), counted from the view's latest point. */
function windowStart(view: View, kind: SeriesKind, q: Partial<HistoryQuery>): string | undefined {
  const latest = view.dates[view.dates.length - 1];
  if (!latest) return undefined;
  // Futures reach back to 2000 but answer 5 years unless asked for more; spot and monthly answer all they hold.
  const range = q.range ?? (q.from !== undefined ? undefined : kind === 'futures' ? '5y' : 'max');
  // The window ends at `to` when it is given (before the latest point): `range`, or the default, counts back from it.
  const end = q.to !== undefined && q.to < latest ? q.to : latest;
  return q.from ?? (range ? historyRangeStart(range, end) : undefined);
}

/** How many points of the window asked were left out for want of a recent rate. */
function leftOutIn(view: View, kind: SeriesKind, q: Partial<HistoryQuery>): number {
  if (view.leftOut.length === 0) return 0;
  const from = windowStart(view, kind, q);
  const i = from ? firstOnOrAfter(view.leftOut, from) : 0;
  const j = q.to ? lastOnOrBefore(view.leftOut, q.to) + 1 : view.leftOut.length;
  return Math.max(0, j - i);
}

/**
 * The points of a window, grouped when asked, and their period. A named range (no `from`, no `to`) is what many
 * requests share: it is cut once per view, window and grouping, within the budget. A window of arbitrary dates is
 * cut for its request alone (repeats of one URL are the response cache's to keep).
 */
function windowOf(view: View, kind: SeriesKind, unit: Unit, q: Partial<HistoryQuery>): Cut {
  const n = view.dates.length;
  const latest = view.dates[n - 1];
  if (!latest) return view;
  const from = windowStart(view, kind, q);
  const i = from ? firstOnOrAfter(view.dates, from) : 0;
  const j = Math.max(i, q.to ? lastOnOrBefore(view.dates, q.to) + 1 : n);
  const group = q.group && kind !== 'monthly' ? q.group : undefined;
  if (i === 0 && j === n && !group) return view;
  const cut = (): Cut => {
    const points = group ? groupPoints(view.raw.slice(i, j), group).map((p) => roundPoint(p, kind, unit, true)) : view.points.slice(i, j);
    return { points, period: periodOf(points, unit) };
  };
  if (q.from !== undefined || q.to !== undefined) return cut();
  const key = `${view.key}|${i}|${j}|${group ?? ''}`;
  // A slice keeps its points alive as much as the view does: charged whole, so letting the view go never frees less than counted.
  const kept = seriesCache().take(key, cut, (c) => pointsBytes(c.points) + 512);
  return keep(key, kept.points, kept);
}

/** A currency whose last rate is more than this many days old has ended (the list gives a current one its latest date). */
const ENDED_AFTER_DAYS = 7;

/** The rates of a currency for an answer, and the last date of one that ended (`until`). */
type Rates = FxReading & { until: string | null };

/** The rates of a currency for an answer: null for USD; a currency without a history is the 400 listing those with one. */
async function ratesFor(code: string, asked: string): Promise<Rates | null> {
  if (code === 'USD') return null;
  const list = await fxCurrencies.read();
  if (list.value) {
    if (!/^[A-Z]{3}$/.test(code) || !Object.hasOwn(list.value, code)) {
      const valid = [...new Set(['USD', ...Object.keys(list.value)])].sort();
      throw new ApiError(400, `Unsupported currency: ${asked}. Valid values (the currencies with a rate history): ${valid.join(', ')}`, { valid });
    }
    const { from, to } = list.value[code];
    const until = to !== null && to < daysBefore(todayUtc(), ENDED_AFTER_DAYS) ? to : null;
    return { ...(await readFxSeries(code, from)), until };
  }
  // The list has never answered: a code is tried as it is, and what is kept of it answers while the rates are down.
  if (!/^[A-Z]{3}$/.test(code))
    throw new ApiError(400, `Unsupported currency: ${asked}. Valid values: an ISO 4217 code such as EUR`, { valid: ['USD'] });
  return { ...(await readFxSeries(code, null)), until: null };
}

async function baseFor(query: Partial<HistoryQuery>, now: number): Promise<Base | Unavailable> {
  if (query.series === 'spot') return spotBase(metalByIntraday(query.symbol ?? 'xau').id, now);
  if (query.series === 'monthly') return monthlyBase(metalByIntraday(query.symbol ?? 'xau').id as MonthlyMetal);
  if (query.series === 'london') {
    const metal = metalByIntraday(query.symbol ?? 'xau').id;
    return londonBase(metal, query.time ?? DEFAULT_LONDON_TIME[metal], now);
  }
  return futuresBase(now);
}

/**
 * The history answer for a query (decisions §24): the futures series (default), a metal's spot bars or its monthly
 * averages, in the currency and unit asked, within the window asked (or the one point of `date`), with the
 * statistics of the whole series and the period of the points answered.
 */
export async function getHistoryFor(query: Partial<HistoryQuery>): Promise<History | Unavailable> {
  const now = Date.now();
  const code = (query.currency ?? 'USD').toUpperCase();
  const unit = query.unit ?? 'oz';
  const [base, rates] = await Promise.all([baseFor(query, now), ratesFor(code, query.currency ?? 'USD')]);
  if (isUnavailable(base)) return base;
  if (rates && !rates.series) {
    return unavailable(
      `History in ${code} unavailable: the historical exchange rates (${FX_HISTORY_API_NAME}) are not answering (${rates.error ?? 'no answer'}) and none have been kept for ${code} yet. Retry shortly, or ask in USD.`,
      NOTHING,
      now,
    );
  }
  const fx = rates?.series ?? null;
  const until = rates?.until ?? null;
  const view = viewOf(base, fx, unit, until);
  // Rates that could not be brought up to date make the converted answer stale, never wrong: each point keeps its own date's rate.
  const data_state: DataState =
    rates?.status === 'stale' && base.data_state.status === 'fresh' ? { ...base.data_state, status: 'stale' } : base.data_state;
  let points: OutPoint[];
  let period: Period;
  let requested: { requested_date?: string } = {};
  if (query.date) {
    const k = lastOnOrBefore(view.dates, query.date);
    if (k < 0) {
      const starts = view.dates[0] ? `; the series${fx ? ` in ${code}` : ''} starts ${view.dates[0]}` : '';
      throw new ApiError(404, `No ${base.kind} point on or before ${query.date}${starts}`, { data_state });
    }
    points = [view.points[k]];
    period = periodOf(points, unit);
    requested = { requested_date: query.date };
  } else ({ points, period } = windowOf(view, base.kind, unit, query));
  const grouped = !query.date && query.group && base.kind !== 'monthly' ? query.group : undefined;
  const interval = grouped === 'week' ? 'weekly' : grouped === 'month' || base.kind === 'monthly' ? 'monthly' : 'daily';
  const asked = fx || unit !== 'oz' ? { currency: code, unit: unitEntry(unit).label } : {};
  return {
    symbol: base.usd.symbol,
    series: base.kind,
    interval,
    source: base.usd.source,
    points: points as History['points'],
    count: points.length,
    ...view.stats,
    period,
    ...requested,
    ...asked,
    ...(fx ? { fx: fxOf(fx, until, query.date ? 0 : leftOutIn(view, base.kind, query)) } : {}),
    ...base.extra,
    data_state,
    updated_at: new Date(now).toISOString(),
  };
}

/** What a converted answer says of its rates: where from, from and until when, and the points a gap in them left out. */
function fxOf(fx: FxSeries, until: string | null, leftOut: number): NonNullable<History['fx']> {
  return { source: FX_HISTORY_SOURCE, from: fx.d[0], ...(until ? { until } : {}), ...(leftOut > 0 ? { left_out: leftOut } : {}) };
}

// What is made from a kept points list (its JSON, its ETags) is kept beside it in the budget, under the list's key:
// a list made again after the budget let it go finds it, as it is the same. A list cut for one request has no key.
const keyOf = new WeakMap<readonly object[], string>();
function keep<T>(key: string, points: readonly object[], value: T): T {
  keyOf.set(points, key);
  return value;
}

/**
 * What `make` makes from a kept points list (`part` names it among the list's), held in the budget charged
 * `bytesOf`; undefined for a list cut for one request, which nothing else will ask about.
 */
export function keptFor<T>(points: readonly object[], part: string, make: () => T, bytesOf: (value: T) => number): T | undefined {
  const key = keyOf.get(points);
  return key === undefined ? undefined : seriesCache().take(`${key}|${part}`, make, bytesOf);
}

// A history answer's points are most of its JSON, and they change only with the series: their text is
// encoded once per kept list of points (one copy: the bytes sent) and set into each answer, whose freshness alone is new.
/** A string no answer holds, put where the points go and replaced by their JSON. */
const POINTS_MARK = '\u0000points\u0000';
const POINTS_MARK_JSON = JSON.stringify(POINTS_MARK);

const encode = (points: readonly HistoryPoint[]) => Buffer.from(JSON.stringify(points));

/**
 * A history answer as JSON in three parts, which joined are the text JSON.stringify gives: what comes before the
 * points, the points' UTF-8 bytes (the same bytes for every answer of one kept list), what comes after.
 */
export function historyJsonParts(body: History): [head: string, points: Uint8Array, tail: string] {
  const points =
    keptFor(
      body.points,
      'json',
      () => encode(body.points),
      (b) => bytesOfBuffer(b.length),
    ) ?? encode(body.points);
  const [head, tail] = JSON.stringify({ ...body, points: POINTS_MARK }).split(POINTS_MARK_JSON);
  return [head, points, tail];
}

/** A history answer as JSON, the same text JSON.stringify gives, with the points' part reused. */
export function historyJson(body: History): string {
  if (body.points.length < 2) return JSON.stringify(body);
  const [head, points, tail] = historyJsonParts(body);
  return head + Buffer.from(points.buffer, points.byteOffset, points.byteLength).toString('utf8') + tail;
}

/** A latest spot bar within this many days of the current session keeps the series fresh (a long weekend). */
const SPOT_FRESH_DAYS = 4;

/** What every answer of one held series in one session shares: all but its freshness. */
interface SpotView extends Held {
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
  return { kind: 'spot', key: view.key, raw: view.raw, usd: view.usd, dates: view.dates, period: view.period, data_state };
}

/** The daily spot series of a metal in USD per troy ounce: every bar kept (recorded and imported), oldest first, with the statistics of the futures series. */
export async function getSpotHistory(metal: MetalId = 'gold'): Promise<History> {
  return (await getHistoryFor({ series: 'spot', symbol: metalById(metal).intraday })) as History;
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
type HeldRaw = Held & { raw: RawPoint[] };
const heldRawBytes = (h: HeldRaw) => heldBytes(h) + pointsBytes(h.raw);

/** The USD answer of a monthly series, computed once per series read (within the budget). */
async function monthlyBase(metal: MonthlyMetal): Promise<Base> {
  const m = await getMonthlySeries(metal);
  const key = `monthly|${idOf(m.points)}`;
  const held = seriesCache().take(
    key,
    (): HeldRaw => {
      const raw = m.points.map((p) => ({ d: p.d, c: p.c }));
      const points = raw.map((p) => ({ d: p.d, c: round(p.c, 2) }));
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

/** A metal's values at a London time (lib/series/london.ts), as a series of the history answer. */
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
    (): HeldRaw => {
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
