import type { Reading, Status } from '../sources/freshness';
import type { Quote } from '../sources/upstream/quotes';

// What a served price is: the value chosen between the two live sources (./served-price.ts chooses it) and what it
// was chosen from. Apart from the choosing, so who only hears of a served price (./observers.ts) need not import it.

export interface SourceEntry {
  name: string;
  price_usd_oz: number | null;
  as_of: string | null;
  status: Status;
}

export interface CrossCheck {
  status: 'agree' | 'diverged' | 'single';
  /** (primary ÷ secondary − 1) × 100, 3 decimals; null unless both are fresh. */
  difference_pct: number | null;
}

export interface Served {
  /** The served value, its freshness and timestamps. */
  reading: Reading<number>;
  /** Attribution: the source actually served, or `unavailable`. */
  source: string;
  /** Every source with what it holds now, primary first. */
  sources: SourceEntry[];
  crossCheck: CrossCheck;
  /** The quotes feed's bid and ask, only while that feed is fresh. */
  quote: Quote | null;
}
