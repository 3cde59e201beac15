import type { DataState } from '../schemas/common';
import type { History, HistoryGroup, HistoryPoint } from '../schemas/history';
import { unitEntry, type Unit } from '../reference/units';
import type { FxSeries } from '../sources/fx-history';
import { FX_HISTORY_SOURCE } from '../sources/upstream/fx-history';
import { bytesOfBuffer, keptFor } from './cache-budget';
import type { OutPoint, SeriesKind } from './history-points';
import type { Series } from './history-series';
import type { Period, Stats } from './history-stats';

// Step 6 of a history answer (lib/series/history.ts), body: the answer put together from what the steps before made,
// and its JSON, whose points' part (most of it) is encoded once per kept list of points within the series budget.

/** What the steps before give the body. */
export interface Parts {
  kind: SeriesKind;
  /** The series' USD answer: its symbol and source. */
  usd: Pick<Series, 'symbol' | 'source'>;
  /** The monthly series' licence, attribution and description; the london series' time. */
  extra?: Pick<History, 'license' | 'attribution' | 'description' | 'time' | 'london_time'>;
  points: OutPoint[];
  stats: Stats;
  period: Period;
  /** The bars' width when grouped. */
  group: HistoryGroup | undefined;
  /** The date asked by `date=`. */
  requestedDate?: string;
  /** The currency code and unit asked: named in the answer when not USD per troy ounce. */
  code: string;
  unit: Unit;
  /** The rates applied, with the last date of a currency that ended and how many points a gap in them left out. */
  fx: { series: FxSeries; until: string | null; leftOut: number } | null;
  data_state: DataState;
  now: number;
}

const INTERVALS = { week: 'weekly', month: 'monthly', year: 'yearly' } as const satisfies Record<HistoryGroup, History['interval']>;

/** The history answer (decisions §24): the series named, its points and statistics, the period, what was asked, the rates, the freshness. */
export function historyBody(p: Parts): History {
  const interval = p.group ? INTERVALS[p.group] : p.kind === 'monthly' ? 'monthly' : 'daily';
  const asked = p.fx || p.unit !== 'oz' ? { currency: p.code, unit: unitEntry(p.unit).label } : {};
  return {
    symbol: p.usd.symbol,
    series: p.kind,
    interval,
    source: p.usd.source,
    points: p.points as History['points'],
    ...(p.group ? { bars_of: p.kind === 'monthly' ? ('monthly_averages' as const) : ('daily' as const) } : {}),
    count: p.points.length,
    ...p.stats,
    period: p.period,
    ...(p.requestedDate !== undefined ? { requested_date: p.requestedDate } : {}),
    ...asked,
    ...(p.fx ? { fx: fxOf(p.fx.series, p.fx.until, p.fx.leftOut) } : {}),
    ...p.extra,
    data_state: p.data_state,
    updated_at: new Date(p.now).toISOString(),
  };
}

/** What a converted answer says of its rates: where from, from and until when, and the points a gap in them left out. */
function fxOf(fx: FxSeries, until: string | null, leftOut: number): NonNullable<History['fx']> {
  return { source: FX_HISTORY_SOURCE, from: fx.d[0], ...(until ? { until } : {}), ...(leftOut > 0 ? { left_out: leftOut } : {}) };
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
