import { metrics } from '../core/metrics.mjs';
import type { MetalId } from '../reference/metals';
import type { Reading } from '../sources/freshness';
import { getStore, safely } from '../store';

// How far the two live sources stand apart (decisions §26): each new pair of fresh readings (a new fetch of
// either source) where the served price is chosen is kept as one point, (primary ÷ secondary mid − 1) in basis
// points, in the store's series `agreement:<metal>`, so the status page can give the median and the largest
// gap over 24 h and count the cross-check failures (a gap past served-price.ts's DIVERGENCE). Two days are kept.
const KEEP_S = 2 * 86_400;

export const agreementSeries = (metal: MetalId) => `agreement:${metal}`;

/** The pair last recorded per metal in this process (fetch times), so a cached pair is not counted again. */
const recorded = new Map<MetalId, string>();
let trimmedAt = 0;

/** Keeps the gap of a fresh pair; null when there is nothing new to keep. Never rejects. */
export function recordPair(metal: MetalId, p: Reading<number>, mid: Reading<number>): Promise<void> | null {
  if (p.status !== 'fresh' || mid.status !== 'fresh' || p.value === null || mid.value === null) return null;
  const pair = `${p.fetchedAt}/${mid.fetchedAt}`;
  if (recorded.get(metal) === pair) return null;
  recorded.set(metal, pair);
  const bp = Math.round((p.value / mid.value - 1) * 1_000_000) / 100;
  const t = Math.floor(Math.max(p.fetchedAt ?? 0, mid.fetchedAt ?? 0) / 1000);
  const store = getStore();
  const trim = Date.now() - trimmedAt > 3_600_000;
  if (trim) trimmedAt = Date.now();
  return safely(
    async () => {
      await store.addPoint(agreementSeries(metal), { t, p: bp });
      if (trim) await store.trim(agreementSeries(metal), t - KEEP_S);
      return true;
    },
    `save ${agreementSeries(metal)}`,
  ).then((ok) => {
    metrics().recordWrites.inc({ what: 'agreement', result: ok ? 'ok' : 'failed' });
  });
}
