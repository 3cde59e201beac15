import { toDataState } from '../sources/data-state';
import { feeds } from '../sources/feeds';
import type { Reading } from '../sources/freshness';
import type { FxTable } from '../sources/upstream/fx';
import { marketNow } from '../calendar/clock';
import { METALS, OTHER_METALS, type MetalId } from '../reference/metals';
import { priceIn } from './price-in';
import { unitEntry, type Unit } from '../reference/units';
import type { DataState } from '../schemas/common';
import type { MetalLive, PriceEvent } from '../schemas/stream';
import { movement } from './movement';
import { servedPrice, type Served, type ServedNow } from './served-price';
import { checkCurrency, fxInUse } from './spot';

// What the price stream pushes (decisions §21): one read of the served price of every metal and the FX
// table, the same reads spot makes (each feed's TTL and single flight), turned into a `price` event per
// currency and unit with spot's arithmetic and rounding, so an event's numbers equal spot's.

/** Everything an event is made from, read once for every client of an instance. */
export interface LiveRead {
  served: Record<MetalId, Served>;
  fx: Reading<FxTable>;
}

/** One read of what spot would serve now. Never throws: a source that is down gives its stale or unavailable reading. */
export async function readLive(): Promise<LiveRead> {
  const [metals, fx] = await Promise.all([Promise.all(METALS.map((m) => servedPrice(m.id))), feeds.fx.read()]);
  return { served: Object.fromEntries(METALS.map((m, i) => [m.id, metals[i]])) as Record<MetalId, ServedNow>, fx };
}

/** The documented 400 for a currency the FX table in use does not hold (`asked` as the client wrote it). */
export function checkStreamCurrency(read: LiveRead, asked: string | undefined, now = Date.now()): string {
  const code = (asked ?? 'USD').toUpperCase();
  checkCurrency(code, asked, fxInUse(read.fx, now).table);
  return code;
}

/** The `price` event for one currency (upper case, in the FX table) and unit. */
export async function priceEvent(read: LiveRead, currency: string, unit: Unit, now = Date.now()): Promise<PriceEvent> {
  const fx = fxInUse(read.fx, now);
  const rate = fx.table[currency];
  const inUnit = (usdOz: number | null) => (usdOz === null ? null : priceIn(usdOz, rate, unit));
  const moved = { currency, rate, fxFresh: fx.state.status === 'fresh', unit };
  const changes = await Promise.all(METALS.map((m) => movement(m.id, { ...moved, priceUsdOz: read.served[m.id].reading.value }, now)));
  const metals = Object.fromEntries(
    METALS.map((m, i): [MetalId, MetalLive] => [
      m.id,
      {
        usd_oz: read.served[m.id].reading.value,
        change: changes[i].change,
        previous_close_date: changes[i].previous_close_date,
        from_metal: changes[i].from_metal,
        from_currency: changes[i].from_currency,
        data_state: toDataState(read.served[m.id].reading, now),
      },
    ]),
  ) as Record<MetalId, MetalLive>;
  const quote = read.served.gold.quote;
  return {
    currency,
    unit: unitEntry(unit).label,
    price: inUnit(metals.gold.usd_oz),
    ...(Object.fromEntries(OTHER_METALS.map((m) => [m.id, inUnit(metals[m.id].usd_oz)])) as Record<Exclude<MetalId, 'gold'>, number | null>),
    bid: quote ? inUnit(quote.bid) : null,
    ask: quote ? inUnit(quote.ask) : null,
    change_pct: Object.fromEntries(METALS.map((m, i) => [m.id, changes[i].change_pct])) as Record<MetalId, number | null>,
    market: marketNow(now),
    data_state: metals.gold.data_state,
    updated_at: new Date(now).toISOString(),
    metals,
    fx_rate: rate,
    fx_stale: fx.state.status !== 'fresh',
    fx_state: fx.state,
  };
}

/**
 * What makes an event new: its prices, changes, market and each state's status and `as_of` (the FX table's too, so a
 * rate that goes stale is told to the pages that show it). Not the times
 * that move by themselves (`updated_at`, `age_seconds`) nor whether this read or an earlier one fetched
 * the price (`source`), so an unchanged price sends nothing.
 */
export function eventKey(e: PriceEvent): string {
  const state = (d: DataState) => [d.status, d.as_of];
  return JSON.stringify([
    e.price,
    e.bid,
    e.ask,
    e.market,
    e.fx_rate,
    state(e.fx_state),
    METALS.map((m) => [
      e.metals[m.id].usd_oz,
      e.metals[m.id].change,
      e.change_pct[m.id],
      e.metals[m.id].previous_close_date,
      e.metals[m.id].from_metal,
      e.metals[m.id].from_currency,
      state(e.metals[m.id].data_state),
    ]),
  ]);
}

/** The event's `id`: the time (ms) of the newest price in it; null when it holds none. */
export function eventId(e: PriceEvent): number | null {
  const times = METALS.map((m) => e.metals[m.id].data_state.as_of)
    .filter((t): t is string => t !== null)
    .map(Date.parse);
  return times.length ? Math.max(...times) : null;
}
