import type { Spot } from '@/lib/schemas/spot';
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

function changeView(c: Spot['change'] | undefined): LiveView['change'] {
  if (!c || c.state !== 'ok' || c.change === null || c.change_pct === null) return null;
  const dir = c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'flat';
  const word = dir === 'up' ? 'Up' : dir === 'down' ? 'Down' : 'Unchanged';
  return {
    dir,
    arrow: dir === 'up' ? '▲' : dir === 'down' ? '▼' : '▶',
    text: `${word} ${sign(c.change)}${usd(Math.abs(c.change))} (${sign(c.change_pct)}${Math.abs(c.change_pct).toFixed(2)}%) since the previous close of ${c.previous_close_date}`,
  };
}

export function liveView(s: SpotAnswer): LiveView {
  const state = s.data_state;
  const held = 'xau' in s ? s : null;
  return {
    price: held ? usd(held.xau.price) : 'Unavailable',
    state:
      state.status === 'fresh'
        ? { className: 'pill', text: 'fresh' }
        : state.status === 'stale'
          ? { className: 'badge', text: `Stale · last real price, ${state.age_seconds} s old` }
          : { className: 'badge', text: 'No price has been received yet' },
    asOf: `price as of ${state.as_of ? new Date(state.as_of).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—'}`,
    change: held ? changeView(held.change) : null,
    details: held
      ? `${usd(held.per_gram_usd, 4)} per gram` +
        (held.silver_usd_oz ? ` · silver ${usd(held.silver_usd_oz)}/oz` : '') +
        (held.gold_silver_ratio ? ` · gold/silver ratio ${held.gold_silver_ratio}` : '')
      : null,
  };
}
