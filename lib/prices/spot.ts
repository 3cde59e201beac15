import { toDataState } from '../sources/data-state';
import { feeds } from '../sources/feeds';
import { FX_FALLBACK } from '../sources/fx-fallback';
import { marketNow } from '../calendar/clock';
import { movement } from './movement';
import type { Reading } from '../sources/freshness';
import { ApiError } from '../core/errors';
import type { DataState } from '../schemas/common';
import type { Spot, SpotQuery } from '../schemas/spot';
import { KARATS, purity } from '../reference/karats';
import { stats } from '../reference/supply';
import { metalById, METALS, OTHER_METALS, type Metal, type MetalId } from '../reference/metals';
import { peekServed, servedPrice, type Served, type ServedNow } from './served-price';
import { storeStatus } from '../store';
import { isUnavailable, unavailable, type Unavailable } from '../sources/unavailable';
import { OZ_PER_TONNE, round, roundOrNull, unitEntry, type Unit } from '../reference/units';
import { exactPriceIn, priceIn } from './price-in';
import { CRYPTO_API_NAME } from '../sources/upstream/crypto';
import { FX_API_NAME, type FxTable } from '../sources/upstream/fx';
import { QUOTES_API_NAME } from '../sources/upstream/quotes';

// GET /api/v1/spot: gold in any currency and unit, with the other served metals (lib/reference/metals.ts),
// FX, tokens, Bitcoin and the annual statistics. Each group is read from its own feed and degrades
// on its own; only a gold price never seen makes the whole answer unavailable (503).

export interface SpotOptions {
  /** Origin of the request, for the `docs` link. */
  origin: string;
}

type OtherPrices = Pick<Spot, (typeof OTHER_METALS)[number]['usdField']>;
type OtherSources = Pick<Spot, (typeof OTHER_METALS)[number]['sourceField']>;

const SERVICE = 'Gold market data service: free, keyless, honest about freshness';

/** The FX table in use and its group state: live, last live (stale), or the bundled snapshot. */
export function fxInUse(r: Reading<FxTable>, now: number): { table: FxTable; state: DataState; source: string } {
  if (r.value) return { table: r.value, state: toDataState(r, now), source: FX_API_NAME };
  return {
    table: FX_FALLBACK.table,
    state: toDataState({ status: 'stale', asOf: FX_FALLBACK.asOf, source: 'snapshot' }, now),
    source: FX_FALLBACK.label,
  };
}

/** The documented 400 unless `code` (upper case; `asked` as the client wrote it) is in the FX table in use. */
export function checkCurrency(code: string, asked: string | undefined, table: FxTable): void {
  if (!/^[A-Z]{3}$/.test(code) || !(code in table)) {
    throw new ApiError(400, `Unsupported currency: ${asked}`, { supported: Object.keys(table).sort() });
  }
}

/** The spot resource for a parsed query; an unsupported currency is the documented 400. */
export async function getSpot(query: Partial<SpotQuery>, opts: SpotOptions): Promise<Spot | Unavailable> {
  const q = {
    currency: (query.currency ?? 'USD').toUpperCase(),
    unit: query.unit ?? 'oz',
    compact: query.compact === '1',
    debug: query.debug === '1',
  };
  const [metals, fxr, tokens] = await Promise.all([Promise.all(METALS.map((m) => servedPrice(m.id))), feeds.fx.read(), feeds.tokens.read()]);
  const served = Object.fromEntries(METALS.map((m, i) => [m.id, metals[i]])) as Record<MetalId, ServedNow>;
  const now = Date.now();
  const fx = fxInUse(fxr, now);
  const goldServed = served.gold;
  const gold = goldServed.reading;

  checkCurrency(q.currency, query.currency, fx.table);
  if (gold.value === null) {
    return unavailable(
      'Gold price unavailable: both live sources are down and no real price has been seen yet. Retry shortly.',
      toDataState(gold, now),
      now,
    );
  }

  const spot = gold.value;
  const rate = fx.table[q.currency];
  const silverUsd = served.silver.reading.value;
  const t = tokens.value;
  const perKg = exactPriceIn(spot, 1, 'kg');
  const goldMcap = spot * stats.gold_supply_tonnes * OZ_PER_TONNE;
  const btc = t?.btc_usd ?? null;
  const btcMcap = t?.btc_market_cap_usd ?? null;
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : a / b);

  const updatedAt = new Date(now).toISOString();
  const dataState = toDataState(gold, now);
  const moved = { currency: q.currency, rate, fxFresh: fx.state.status === 'fresh', unit: q.unit };
  const changes = await Promise.all(METALS.map((m) => movement(m.id, { ...moved, priceUsdOz: served[m.id].reading.value }, now)));
  const body: Spot = {
    xau: { price: priceIn(spot, rate, q.unit), currency: q.currency, unit: unitEntry(q.unit).label },
    karats: Object.fromEntries(KARATS.map((k) => [`${k}k`, priceIn(spot, rate, q.unit, purity(k))])) as Spot['karats'],
    spot_usd_oz: spot,
    per_gram_usd: priceIn(spot, 1, 'gram'),
    per_kg_usd: priceIn(spot, 1, 'kg'),
    fx_rate: rate,
    fx_rates: q.compact ? undefined : fx.table,
    ...(Object.fromEntries(OTHER_METALS.map((m) => [m.usdField, served[m.id].reading.value])) as OtherPrices),
    gold_silver_ratio: roundOrNull(ratio(spot, silverUsd), 2),
    xaut_usd: t?.xaut_usd ?? null,
    paxg_usd: t?.paxg_usd ?? null,
    xaut_gold_ratio: roundOrNull(ratio(t?.xaut_usd ?? null, spot), 4),
    paxg_gold_ratio: roundOrNull(ratio(t?.paxg_usd ?? null, spot), 4),
    btc_usd: btc,
    btc_gold_oz: roundOrNull(ratio(btc, spot), 4),
    btc_gold_kg: roundOrNull(ratio(btc, perKg), 4),
    btc_market_cap_usd: btcMcap,
    gold_market_cap_usd: round(goldMcap, 0),
    btc_vs_gold_mcap_pct: roundOrNull(btcMcap === null ? null : (btcMcap / goldMcap) * 100, 2),
    bitcoin_gold_parity_usd: roundOrNull(btcMcap === null || btc === null ? null : goldMcap / (btcMcap / btc), 2),
    gold_supply_tonnes: stats.gold_supply_tonnes,
    annual_production_tonnes: stats.annual_production_tonnes,
    underground_reserves_tonnes: stats.underground_reserves_tonnes,
    cb_reserves_tonnes: stats.cb_reserves_tonnes,
    cb_top_holder_usa_tonnes: stats.cb_top_holder_usa_tonnes,
    cb_net_purchases_tonnes: stats.cb_net_purchases_tonnes,
    cb_reserves_pct_supply: round((stats.cb_reserves_tonnes / stats.gold_supply_tonnes) * 100, 2),
    cb_share_global_reserves_pct: round(stats.cb_share_global_reserves * 100, 2),
    price_source: goldServed.source,
    fx_source: fx.source,
    ...(Object.fromEntries(OTHER_METALS.map((m) => [m.sourceField, served[m.id].source])) as OtherSources),
    token_source: t === null ? 'unavailable' : CRYPTO_API_NAME,
    ...twoSources(goldServed),
    market: marketNow(now),
    ...(Object.fromEntries(METALS.map((m, i) => [m.changeField, changes[i]])) as Pick<Spot, Metal['changeField']>),
    data_state: dataState,
    groups: {
      ...(Object.fromEntries(METALS.map((m) => [m.id, m.id === 'gold' ? dataState : toDataState(served[m.id].reading, now)])) as Spot['groups']),
      fx: fx.state,
      tokens: toDataState(tokens, now),
    },
    stale: gold.status === 'stale',
    price_as_of: gold.status === 'stale' ? (dataState.as_of ?? updatedAt) : updatedAt,
    fx_stale: fx.state.status !== 'fresh',
    stats_as_of: stats.as_of,
    updated_at: updatedAt,
    source: SERVICE,
    docs: `${opts.origin}/docs`,
  };
  if (q.debug) {
    const age = (r: Reading<unknown>) => (r.fetchedAt === null ? null : Math.max(0, Math.floor((now - r.fetchedAt) / 1000)));
    body.debug = {
      uptime_s: Math.floor(process.uptime()),
      price_age_s: age(gold),
      fx_cache_age_s: age(fxr),
      token_cache_age_s: age(tokens),
      ...storeStatus(),
    };
  }
  return body;
}

/** One figure of spot, with the state of the metal it prices. */
export interface PriceFigure {
  price: number;
  data_state: DataState;
  updated_at: string;
}

/** A metal's served USD price and the rate of a currency, as spot reads them at one moment, with the metal's own state. */
export interface MetalReading {
  usdOz: number;
  rate: number;
  currency: string;
  data_state: DataState;
  updated_at: string;
}

/**
 * What spot reads for one metal (decisions §30, §31): its served price, the FX table in use and the currency's rate. The
 * state is the metal's own (spot's `groups[metal]`; gold's is `data_state`): stale is the last real price, and a metal
 * never seen is unavailable. An unsupported currency is spot's 400.
 */
export async function readMetal(metal: MetalId, currencyAsked: string | undefined): Promise<MetalReading | Unavailable> {
  const currency = (currencyAsked ?? 'USD').toUpperCase();
  const [served, fxr] = await Promise.all([servedPrice(metal), feeds.fx.read()]);
  const now = Date.now();
  const fx = fxInUse(fxr, now);
  checkCurrency(currency, currencyAsked, fx.table);
  const { reading } = served;
  const state = toDataState(reading, now);
  if (reading.value === null) {
    return unavailable(
      `${metalById(metal).name} price unavailable: both live sources are down and no real price has been seen yet. Retry shortly.`,
      state,
      now,
    );
  }
  return { usdOz: reading.value, rate: fx.table[currency], currency, data_state: state, updated_at: new Date(now).toISOString() };
}

/**
 * One figure of spot (decisions §30): `metal` in `currency` per `unit`, at `fineness` (gold's karat ÷ 24, or any
 * fineness), from the same served price, FX table and arithmetic as spot.
 */
export async function priceFigure(query: { metal: MetalId; currency?: string; unit?: Unit; fineness?: number }): Promise<PriceFigure | Unavailable> {
  const read = await readMetal(query.metal, query.currency);
  if (isUnavailable(read)) return read;
  return { price: priceIn(read.usdOz, read.rate, query.unit ?? 'oz', query.fineness), data_state: read.data_state, updated_at: read.updated_at };
}

/** The additive two-source fields of spot: each gold source, their agreement, and the quotes feed's bid/ask. */
function twoSources(gold: Served): Pick<Spot, 'sources' | 'cross_check' | 'bid_usd_oz' | 'ask_usd_oz' | 'quote_source'> {
  return {
    sources: gold.sources,
    cross_check: gold.crossCheck,
    bid_usd_oz: gold.quote?.bid ?? null,
    ask_usd_oz: gold.quote?.ask ?? null,
    quote_source: gold.quote ? QUOTES_API_NAME : 'unavailable',
  };
}

// Serializing the FX table (160+ numbers) is most of what turning a full spot answer into JSON
// costs, and the table changes only when it is fetched again: it is serialized once per table.
const fxJson = new WeakMap<FxTable, string>();
/** A string no answer holds, put where the table goes and replaced by the table's JSON. */
const FX_MARK = '\u0000fx_rates\u0000';
const FX_MARK_JSON = JSON.stringify(FX_MARK);

/** The spot answer as JSON, the same text JSON.stringify gives, with the FX table's part reused. */
export function spotJson(spot: Spot): string {
  const table = spot.fx_rates;
  if (!table) return JSON.stringify(spot);
  let json = fxJson.get(table);
  if (json === undefined) fxJson.set(table, (json = JSON.stringify(table)));
  const text = json;
  return JSON.stringify({ ...spot, fx_rates: FX_MARK }).replace(FX_MARK_JSON, () => text);
}

/** Gold's state without asking the upstreams: for error bodies. */
export async function goldState(): Promise<DataState> {
  return toDataState((await peekServed('gold')).reading);
}
