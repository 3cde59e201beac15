import { priceIn } from '@/lib/prices/price-in';
import { roundOrNull } from '@/lib/reference/units';
import type { DataState } from '@/lib/schemas/common';
import type { Spot } from '@/lib/schemas/spot';
import type { PriceEvent } from '@/lib/schemas/stream';
import type { Unavailable } from '@/lib/sources/unavailable';

// What the landing page's price card says for a spot answer: the page renders it, and the page's
// script (site/scripts/landing.ts) renders it again from each refreshed answer, with this one function.

/** The spot body, or the 503 body when no price is held: both carry data_state. */
export type SpotAnswer = Spot | Unavailable;

export interface LiveView {
  price: string;
  /** The freshness mark: a pill when fresh, a warning badge otherwise. */
  state: { className: 'pill' | 'badge'; text: string };
  asOf: string;
  /** The move since the previous session's close, from the service's own daily spot bars; null while not known. */
  change: { dir: 'up' | 'down' | 'flat'; arrow: string; text: string } | null;
  details: string | null;
}

const usd = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '−' : '±');

function changeView(c: Pick<Spot['change'], 'change' | 'change_pct' | 'previous_close_date'> | undefined): LiveView['change'] {
  if (!c || c.change === null || c.change_pct === null) return null;
  const dir = c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'flat';
  const word = dir === 'up' ? 'Up' : dir === 'down' ? 'Down' : 'Unchanged';
  return {
    dir,
    arrow: dir === 'up' ? '▲' : dir === 'down' ? '▼' : '▶',
    text: `${word} ${sign(c.change)}${usd(Math.abs(c.change))} (${sign(c.change_pct)}${Math.abs(c.change_pct).toFixed(2)}%) since the previous close of ${c.previous_close_date}`,
  };
}

/** The card's figures, from a spot answer or a price event alike. */
interface Figures {
  priceUsdOz: number;
  perGramUsd: number;
  silverUsdOz: number | null;
  ratio: number | null;
  change: LiveView['change'];
}

function view(state: DataState, held: Figures | null): LiveView {
  return {
    price: held ? usd(held.priceUsdOz) : 'Unavailable',
    state:
      state.status === 'fresh'
        ? { className: 'pill', text: 'fresh' }
        : state.status === 'stale'
          ? { className: 'badge', text: `Stale · last real price, ${state.age_seconds} s old` }
          : { className: 'badge', text: 'No price has been received yet' },
    asOf: `price as of ${state.as_of ? new Date(state.as_of).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—'}`,
    change: held?.change ?? null,
    details: held
      ? `${usd(held.perGramUsd, 4)} per gram` +
        (held.silverUsdOz ? ` · silver ${usd(held.silverUsdOz)}/oz` : '') +
        (held.ratio ? ` · gold/silver ratio ${held.ratio}` : '')
      : null,
  };
}

export function liveView(s: SpotAnswer): LiveView {
  const held = 'xau' in s ? s : null;
  return view(
    s.data_state,
    held && {
      priceUsdOz: held.xau.price,
      perGramUsd: held.per_gram_usd,
      silverUsdOz: held.silver_usd_oz,
      ratio: held.gold_silver_ratio,
      change: held.change.state === 'ok' ? changeView(held.change) : null,
    },
  );
}

/** The same card from a price event in USD per troy ounce (the landing's stream), its age counted at `now` (ms). */
export function liveViewOfEvent(e: PriceEvent, now = Date.now()): LiveView {
  const gold = e.metals.gold;
  const silver = e.metals.silver.usd_oz;
  const state = { ...e.data_state, age_seconds: e.data_state.as_of ? Math.max(0, Math.floor((now - Date.parse(e.data_state.as_of)) / 1000)) : null };
  // Spot's arithmetic on the same served price: per gram 4 decimals, the ratio 2.
  return view(
    state,
    e.price === null || gold.usd_oz === null
      ? null
      : {
          priceUsdOz: e.price,
          perGramUsd: priceIn(gold.usd_oz, 1, 'gram'),
          silverUsdOz: silver,
          ratio: roundOrNull(silver === null ? null : gold.usd_oz / silver, 2),
          change: changeView({ ...gold, change_pct: e.change_pct.gold }),
        },
  );
}
