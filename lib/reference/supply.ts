import goldStats from '../data/gold-stats.json';
import holdings from '../data/wgc-official-holdings-2026-08.json';

// Annual supply and reserve statistics for the spot response, each picked by id from the
// bundled, source-documented figures (lib/data/SOURCES.md). Nothing here is computed; the
// percentages built on these figures are computed in lib/prices/spot.ts.

function figure(id: string): number {
  const f = goldStats.figures.find((x) => x.id === id);
  if (!f) throw new Error(`missing statistic ${id}`);
  return f.value;
}

function holding(country: string): number {
  const row = holdings.rows.find((r) => r.country === country);
  if (!row) throw new Error(`missing holding ${country}`);
  return row.tonnes;
}

export const stats = {
  /** Above-ground stock, end-2025 (WGC 2026 edition). */
  gold_supply_tonnes: figure('above_ground_stock_total_end2025'),
  /** Mine production 2025 (WGC Gold Demand Trends Q2 2026). */
  annual_production_tonnes: figure('mine_production_2025'),
  /** World reserves (USGS Mineral Commodity Summaries 2026). */
  underground_reserves_tonnes: figure('usgs_world_reserves_2025'),
  /** World official holdings (WGC, Aug 2026 edition of IMF IFS data). */
  cb_reserves_tonnes: figure('world_official_gold_holdings_wgc_aug2026'),
  cb_top_holder_usa_tonnes: holding('United States'),
  /** Central-bank net purchases in 2025, the latest full year. */
  cb_net_purchases_tonnes: figure('central_bank_net_purchases_2025'),
  /** Gold's share of world official reserves, as a fraction. */
  cb_share_global_reserves: figure('gold_share_of_world_reserves_wgc_aug2026'),
  /** Publication date of the newest edition the figures come from. */
  as_of: holdings.published,
};
