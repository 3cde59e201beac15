import { recordServed } from './bars';
import { metalFeeds } from '../sources/feeds';
import type { Reading, Status } from '../sources/freshness';
import { UNAVAILABLE } from '../sources/freshness';
import type { MetalId } from '../reference/metals';
import { getStore, safely } from '../store';
import { GOLD_API_NAME } from '../sources/upstream/gold-api';
import { QUOTES_API_NAME, type Quote } from '../sources/upstream/quotes';

// Which live price is served, from two independent sources: the primary (gold-api.com) when fresh,
// else the quotes feed's mid when fresh, else the newest last known real value of either (stale),
// else none. When both are fresh but disagree by more than DIVERGENCE, one of them is wrong: the one
// closer to the last price served wins, since a sudden step away from it is the likelier error.

/** Beyond this relative gap between the two fresh sources, the pair has diverged. */
export const DIVERGENCE = 0.015;

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

/** The served price of `metal` for this request; each source is read through its own cached feed. */
export async function servedPrice(metal: MetalId): Promise<Served> {
  const { primary, secondary } = metalFeeds[metal];
  const [p, q] = await Promise.all([primary.read(), secondary.read()]);
  const served = choose(p, q, await lastServed(metal));
  remember(metal, served);
  return served;
}

/** What would be served now, without asking any upstream: for error bodies. */
export async function peekServed(metal: MetalId): Promise<Served> {
  const { primary, secondary } = metalFeeds[metal];
  const [p, q] = await Promise.all([primary.peek(), secondary.peek()]);
  return choose(p, q, lastKnown.get(metal) ?? null);
}

/** The choice itself, from the two readings and the last price served (null when none yet). */
export function choose(p: Reading<number>, q: Reading<Quote>, last: number | null): Served {
  const mid: Reading<number> = { ...q, value: q.value?.mid ?? null };
  const both = p.status === 'fresh' && mid.status === 'fresh';
  const ratio = both ? p.value! / mid.value! - 1 : null;
  const diverged = ratio !== null && Math.abs(ratio) > DIVERGENCE;
  let pick: 'primary' | 'secondary' | null;
  if (diverged) {
    pick = last !== null && Math.abs(mid.value! - last) < Math.abs(p.value! - last) ? 'secondary' : 'primary';
  } else if (p.status === 'fresh') pick = 'primary';
  else if (mid.status === 'fresh') pick = 'secondary';
  else if (p.value !== null && (mid.value === null || p.asOf! >= mid.asOf!)) pick = 'primary';
  else pick = mid.value !== null ? 'secondary' : null;
  const reading = pick === 'primary' ? p : pick === 'secondary' ? mid : UNAVAILABLE;
  return {
    reading,
    source: pick === 'primary' ? GOLD_API_NAME : pick === 'secondary' ? QUOTES_API_NAME : 'unavailable',
    sources: [entry(GOLD_API_NAME, p), entry(QUOTES_API_NAME, mid)],
    crossCheck: {
      status: ratio === null ? 'single' : diverged ? 'diverged' : 'agree',
      difference_pct: ratio === null ? null : Math.round(ratio * 100_000) / 1000,
    },
    quote: q.status === 'fresh' ? q.value : null,
  };
}

function entry(name: string, r: Reading<number>): SourceEntry {
  return { name, price_usd_oz: r.value, as_of: r.asOf === null ? null : new Date(r.asOf).toISOString(), status: r.status };
}

// The last price served per metal, kept in the store too so a new process or instance judges a
// divergence against the same reference. Read once per process, written only when it changes.
const lastKnown = new Map<MetalId, number>();
const loaded = new Set<MetalId>();
const loggedDivergence = new Map<MetalId, string>();

async function lastServed(metal: MetalId): Promise<number | null> {
  if (!loaded.has(metal)) {
    loaded.add(metal);
    const stored = await safely(() => getStore().get<number>(`served:${metal}`), `read served:${metal}`);
    if (stored !== null && !lastKnown.has(metal)) lastKnown.set(metal, stored);
  }
  return lastKnown.get(metal) ?? null;
}

function remember(metal: MetalId, s: Served): void {
  if (s.crossCheck.status === 'diverged') {
    const [p, q] = s.sources;
    const key = `${p.price_usd_oz}/${q.price_usd_oz}`;
    if (loggedDivergence.get(metal) !== key) {
      loggedDivergence.set(metal, key);
      console.warn(
        `[spot] ${metal} sources diverged: ${p.name} ${p.price_usd_oz}, ${q.name} ${q.price_usd_oz} ` +
          `(${s.crossCheck.difference_pct}%); serving ${s.source}`,
      );
    }
  }
  // Each new fresh observation goes into its session's daily bar (a cached one is not folded again).
  recordServed(metal, s.reading);
  const v = s.reading.value;
  if (s.reading.status !== 'fresh' || v === null || lastKnown.get(metal) === v) return;
  lastKnown.set(metal, v);
  // Not awaited: the answer does not wait on the store; memory holds the value meanwhile.
  void safely(() => getStore().set(`served:${metal}`, v), `save served:${metal}`);
}
