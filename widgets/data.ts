import { getChart } from '../lib/series/chart';
import type { ChartSymbol } from '../lib/reference/instruments';
import { sessionNow } from '../lib/calendar/clock';
import { spotCovers } from '../lib/series/coverage';
import { CHART_METAL, RANGE_DAYS, rangeSeries, rangeWindow, type DrawnIn, type RangeSeries } from './chart';
import type { Strings } from './i18n';
import type { LineRange } from './kinds';
import { metalPrice } from './price';
import { ApiError } from '../lib/core/errors';
import type { DataState } from '../lib/schemas/common';
import type { Spot } from '../lib/schemas/spot';
import { getSpot, goldState } from '../lib/prices/spot';
import { isUnavailable } from '../lib/sources/unavailable';
import type { Unit } from '../lib/reference/units';

// What a widget page renders with: the same lib functions the REST endpoints answer from.

export interface SpotView {
  spot: Spot | null;
  state: DataState;
  /** The currency actually used: an unsupported one falls back to USD. */
  currency: string;
  /** Every currency code of the FX table in use (with `withCodes`). */
  codes: string[];
}

export async function spotForWidget(currency: string, unit: Unit, origin: string, opts: { withCodes?: boolean } = {}): Promise<SpotView> {
  for (const code of currency === 'USD' ? ['USD'] : [currency, 'USD']) {
    let spot: Awaited<ReturnType<typeof getSpot>>;
    try {
      spot = await getSpot({ currency: code, unit, compact: opts.withCodes ? undefined : '1' }, { origin });
    } catch (err) {
      // An unsupported currency: try USD.
      if (err instanceof ApiError && err.status === 400) continue;
      throw err;
    }
    if (isUnavailable(spot)) return { spot: null, state: spot.data_state, currency, codes: [currency] };
    const codes = spot.fx_rates ? Object.keys(spot.fx_rates).sort() : [];
    delete spot.fx_rates;
    return { spot, state: spot.data_state, currency: code, codes };
  }
  return { spot: null, state: await goldState(), currency, codes: [currency] };
}

export interface Headline {
  /** The latest real price, or null. */
  latest: number | null;
  currency: string;
  state: DataState;
}

/** The chart widget's headline: a metal's live spot in the currency and unit asked (USD when spot lacks the currency), the latest real daily bar for the rest. */
export async function chartHeadline(symbol: ChartSymbol, origin: string, currency = 'USD', unit: Unit = 'oz'): Promise<Headline> {
  const metal = CHART_METAL[symbol];
  if (metal) {
    const view = await spotForWidget(currency, unit, origin);
    const latest = view.spot ? metalPrice(view.spot, metal, unit) : null;
    return { latest, currency: view.currency, state: metal === 'gold' ? view.state : (view.spot?.groups[metal] ?? view.state) };
  }
  const chart = await getChart({ symbol, range: '5d', interval: '1d' });
  if (isUnavailable(chart)) return { latest: null, currency: 'USD', state: chart.data_state };
  return { latest: chart.points[chart.points.length - 1]?.c ?? null, currency: chart.currency ?? 'USD', state: chart.data_state };
}

/**
 * Each range's line for a chart of `symbol` drawn in `drawn` (widgets/chart.ts's rangeSeries): whether the daily
 * spot bars cover each daily range's window is judged here, once, on the server (lib/series/coverage.ts, decisions
 * §25), and the page's script draws what it is told. The chart widget and the price pages' chart both ask here.
 */
export async function chartSeries<R extends LineRange>(
  symbol: ChartSymbol,
  ranges: readonly R[],
  drawn: DrawnIn,
  t: Strings,
  nowMs = Date.now(),
): Promise<Record<R, RangeSeries>> {
  const metal = CHART_METAL[symbol];
  const today = sessionNow(nowMs).date;
  const daily = ranges.filter((r): r is R & keyof typeof RANGE_DAYS => r in RANGE_DAYS);
  const covered = metal
    ? await spotCovers(
        metal,
        daily.map((r) => rangeWindow(r, today)),
      )
    : daily.map(() => false);
  return Object.fromEntries(ranges.map((r) => [r, rangeSeries(symbol, r, covered[daily.indexOf(r as never)] ?? false, today, drawn, t)])) as Record<
    R,
    RangeSeries
  >;
}
