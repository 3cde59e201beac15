import { config } from '../core/config';
import { toDataState } from '../sources/data-state';
import { openSecondsSince } from '../calendar/clock';
import { SERIES } from './sampler';
import type { DataState } from '../schemas/common';
import { MAX_HOURS, type Intraday, type IntradayQuery } from '../schemas/intraday';
import { getStore, StoreDownError, type Point } from '../store';
import { NOTHING, unavailable, type Unavailable } from '../sources/unavailable';

// GET /api/v1/intraday: the recorded series for the last `hours`. The store reads only that
// window (points are keyed by series and time), never the whole 14 days.

/** State of a recorded series from its latest sample: stale once the recorder has missed three beats.
 *  Only beats while the market was open count: nothing is recorded while it is closed, so the last
 *  sample before a close stays fresh through the closure. */
export function seriesState(last: { t: number } | undefined, now: number): DataState {
  if (!last) return NOTHING;
  const late = openSecondsSince(last.t * 1000, now) > 3 * config.sampleIntervalS();
  return toDataState({ status: late ? 'stale' : 'fresh', asOf: last.t * 1000, source: 'cache' }, now);
}

export async function getIntraday({ symbol, hours }: Pick<IntradayQuery, 'symbol' | 'hours'>): Promise<Intraday | Unavailable> {
  const now = Date.now();
  const to = Math.floor(now / 1000);
  const points = await readWindow(SERIES[symbol], to - hours * 3600, to);
  if (points === null) return unavailable('Intraday series unavailable: the store that holds it cannot be reached. Retry shortly.', NOTHING, now);
  return {
    symbol,
    hours,
    points,
    count: points.length,
    coverage_seconds: points.length > 1 ? points[points.length - 1].t - points[0].t : 0,
    interval_seconds: config.sampleIntervalS(),
    source: 'Recorded by this service from the spot price it serves (gold-api.com, or the swissquote.com quotes feed when that one is served)',
    data_state: seriesState(points[points.length - 1], now),
    updated_at: new Date(now).toISOString(),
  };
}

/** The state of the gold series without a window, for error bodies. */
export async function intradayState(): Promise<DataState> {
  const to = Math.floor(Date.now() / 1000);
  const recent = (await readWindow(SERIES.xau, to - MAX_HOURS * 3600, to)) ?? [];
  return seriesState(recent[recent.length - 1], Date.now());
}

/** A window of the series, or null while the (KV) store is down: that is not an empty series. */
async function readWindow(series: string, from: number, to: number): Promise<Point[] | null> {
  try {
    return await getStore().range(series, from, to);
  } catch (err) {
    if (err instanceof StoreDownError) return null;
    throw err;
  }
}
