import { recordPair } from './agreement';
import { recordServed } from './bars';
import { recordLondon } from './london-recording';
import { notifyServed } from './observers';
import { metalFeeds } from '../sources/feeds';
import type { Reading } from '../sources/freshness';
import { UNAVAILABLE } from '../sources/freshness';
import type { MetalId } from '../reference/metals';
import { getStore, safely } from '../store';
import { afterAnswer } from '../store/after-answer';
import { GOLD_API_NAME } from '../sources/upstream/gold-api';
import { QUOTES_API_NAME, type Quote } from '../sources/upstream/quotes';
import type { Served, SourceEntry } from './served';

export type { CrossCheck, Served, SourceEntry } from './served';

// Which live price is served, from two independent sources: the primary (gold-api.com) when fresh,
// else the quotes feed's mid when fresh, else the newest last known real value of either (stale),
// else none. When both are fresh but disagree by more than DIVERGENCE, one of them is wrong: the one
// closer to the last price served wins, since a sudden step away from it is the likelier error.

/** Beyond this relative gap between the two fresh sources, the pair has diverged. */
export const DIVERGENCE = 0.015;

const DONE = Promise.resolve();

/** A served price with the write of what it observed (its daily bar, the last price served). */
export interface ServedNow extends Served {
  /** Settles once this observation's writes are in the store or have failed (logged); never rejects. */
  recorded: Promise<void>;
}

/**
 * The served price of `metal` for this request; each source is read through its own cached feed. A new
 * observation's writes are handed to the platform to finish after the answer; callers that must answer
 * only once they are stored (the cron route) await `recorded`.
 */
export async function servedPrice(metal: MetalId): Promise<ServedNow> {
  const { primary, secondary } = metalFeeds[metal];
  const [p, q] = await Promise.all([primary.read(), secondary.read()]);
  const served = choose(p, q, await lastServed(metal));
  const recorded = remember(metal, served);
  if (recorded !== DONE) afterAnswer(recorded);
  // Where the price is chosen, the two sources' gap is kept for the status page.
  const pair = recordPair(metal, p, { ...q, value: q.value?.mid ?? null });
  if (pair) afterAnswer(pair);
  // The price alerts (and any other observer) hear of it; their work never holds this answer.
  notifyServed(metal, served);
  return { ...served, recorded };
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

/** Logs a divergence once, and starts the writes of a new observation; DONE when there are none. */
function remember(metal: MetalId, s: Served): Promise<void> {
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
  // Each new fresh observation goes into its session's daily bar (a cached one is not folded again), and is
  // the value of a London time when it is the first within that time's window (decisions §30).
  const folded = both(recordServed(metal, s.reading), recordLondon(metal, s.reading));
  const v = s.reading.value;
  if (s.reading.status !== 'fresh' || v === null || lastKnown.get(metal) === v) return folded ?? DONE;
  lastKnown.set(metal, v);
  // Memory holds the value at once; the store has it for the next process or instance.
  const saved = safely(() => getStore().set(`served:${metal}`, v), `save served:${metal}`).then(() => undefined);
  return folded ? Promise.all([folded, saved]).then(() => undefined) : saved;
}

/** Two writes as one, either of which may be absent. */
function both(a: Promise<void> | null, b: Promise<void> | null): Promise<void> | null {
  return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
}
