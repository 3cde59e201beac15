import { getChart } from '../lib/series/chart';
import type { ChartSymbol } from '../lib/reference/instruments';
import { CHART_METAL } from './chart';
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
