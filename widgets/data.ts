import { ApiError } from '../lib/http/errors';
import type { DataState } from '../lib/schemas/common';
import type { Spot } from '../lib/schemas/spot';
import { getSpot, goldState } from '../lib/spot';

// What a widget page renders with: the same lib functions the REST endpoints answer from.

export interface SpotView {
  spot: Spot | null;
  state: DataState;
  /** The currency actually used: an unsupported one falls back to USD. */
  currency: string;
  /** Every currency code of the FX table in use (with `withCodes`). */
  codes: string[];
}

export async function spotForWidget(currency: string, unit: string, origin: string, opts: { withCodes?: boolean } = {}): Promise<SpotView> {
  for (const code of currency === 'USD' ? ['USD'] : [currency, 'USD']) {
    try {
      const spot = await getSpot({ currency: code, unit, compact: opts.withCodes ? undefined : '1' }, { origin });
      const codes = spot.fx_rates ? Object.keys(spot.fx_rates).sort() : [];
      delete spot.fx_rates;
      return { spot, state: spot.data_state, currency: code, codes };
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) continue;
      if (err instanceof ApiError && err.status === 503) break;
      throw err;
    }
  }
  return { spot: null, state: await goldState(), currency, codes: [currency] };
}
