'use client';
import useSWR from 'swr';
import type { Spot } from '@/lib/schemas/spot';
import type { Unavailable } from '@/lib/unavailable';
import { apiFetcher } from './fetcher';

/** The spot body, or the 503 body when no price is held: both carry data_state. */
type SpotAnswer = Spot | Unavailable;

const usd = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The move since the previous session's close, from the service's own daily spot bars; nothing while it is not known. */
function SpotChange({ change: c }: { change: Spot['change'] | undefined }) {
  if (!c || c.state !== 'ok' || c.change === null || c.change_pct === null) return null;
  const dir = c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'flat';
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '−' : '±');
  return (
    <p data-testid="spot-change" className={dir} style={{ margin: '0 0 4px' }}>
      <span aria-hidden="true">{dir === 'up' ? '▲' : dir === 'down' ? '▼' : '▶'}</span> {dir === 'up' ? 'Up' : dir === 'down' ? 'Down' : 'Unchanged'}{' '}
      {sign(c.change)}
      {usd(Math.abs(c.change))} ({sign(c.change_pct)}
      {Math.abs(c.change_pct).toFixed(2)}%) since the previous close of {c.previous_close_date}
    </p>
  );
}

/** The landing page's live price: server-rendered first, then refreshed every 30 s (the spot cache time). */
export function LivePrice({ initial }: { initial: SpotAnswer }) {
  const { data } = useSWR<SpotAnswer>('/api/v1/spot?compact=1', apiFetcher, { fallbackData: initial, refreshInterval: 30_000 });
  const s = data ?? initial;
  const state = s.data_state;
  return (
    <section className="card" aria-labelledby="live-title">
      <h2 id="live-title" style={{ margin: 0, fontSize: '1rem' }} className="muted">
        Gold spot, USD per troy ounce
      </h2>
      {'xau' in s ? (
        <p className="price" aria-live="polite" style={{ margin: '4px 0' }}>
          {usd(s.xau.price)}
        </p>
      ) : (
        <p className="price" style={{ margin: '4px 0' }}>
          Unavailable
        </p>
      )}
      <p style={{ margin: 0 }}>
        {state.status === 'stale' ? <span className="badge">Stale · last real price, {state.age_seconds} s old</span> : null}
        {state.status === 'unavailable' ? <span className="badge">No price has been received yet</span> : null}
        {state.status === 'fresh' ? <span className="pill">fresh</span> : null}{' '}
        <span className="muted">price as of {state.as_of ? new Date(state.as_of).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—'}</span>
      </p>
      {'xau' in s ? <SpotChange change={s.change} /> : null}
      {'xau' in s ? (
        <p className="muted" style={{ marginBottom: 0 }}>
          {`${usd(s.per_gram_usd, 4)} per gram`}
          {s.silver_usd_oz ? ` · silver ${usd(s.silver_usd_oz)}/oz` : null}
          {s.gold_silver_ratio ? ` · gold/silver ratio ${s.gold_silver_ratio}` : null}
        </p>
      ) : null}
    </section>
  );
}
