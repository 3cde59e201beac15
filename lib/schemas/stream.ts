import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';
import { Market, PriceChange, SpotQuery } from './spot';
import { METALS, type MetalId } from '../reference/metals';
import { UNIT_LABELS, UNIT_LIST } from '../reference/units';

// GET /api/v1/stream (decisions §21): Server-Sent Events. The query is spot's currency and unit; each
// `price` event's data is the PriceEvent below, the only description of it (its type, the OpenAPI
// document and the docs all come from here).

export const StreamQuery = SpotQuery.pick({ currency: true, unit: true });
export type StreamQuery = z.output<typeof StreamQuery>;

/** The name of the event that carries prices. */
export const PRICE_EVENT = 'price';
/**
 * The name of the event a quiet stream gets every `STREAM_HEARTBEAT_S` (15 s): an event, not only a comment, so a
 * client sees that its stream is alive, and that one whose events a proxy holds back is not (decisions §25).
 */
export const HEARTBEAT_EVENT = 'heartbeat';
/** Milliseconds an EventSource waits before reconnecting (the stream's `retry:` line). */
export const RETRY_MS = 5000;

const ROUNDING = UNIT_LIST.map((u, i) => `${u.id} ${u.decimals}${i === 0 ? ' decimals' : ''}`).join(', ');

/** One value per served metal, keyed by its id (gold, silver, platinum, palladium). */
function perMetal<T extends z.ZodType>(value: (m: (typeof METALS)[number]) => T) {
  return z.object(Object.fromEntries(METALS.map((m) => [m.id, value(m)])) as Record<MetalId, T>);
}

const inUnit = (description: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${description}, in \`currency\` per \`unit\`, rounded as spot's \`xau.price\` (${ROUNDING}); null when never seen` });

export const MetalLive = z
  .object({
    usd_oz: z.number().nullable().meta({
      description: 'USD per troy ounce as served, unrounded (as spot’s `spot_usd_oz`, `silver_usd_oz`, …): for a client that converts itself',
    }),
    change: inUnit('The price minus the previous session’s close (as spot’s `change.change`)'),
    previous_close_date: z.string().nullable().meta({ description: 'Date of that close, YYYY-MM-DD; null while no earlier bar exists' }),
    from_metal: PriceChange.shape.from_metal.meta({
      description: 'What the metal’s own move made of `change`, `{amount, pct}` (as spot’s `change.from_metal`); null where spot’s is',
    }),
    from_currency: PriceChange.shape.from_currency.meta({
      description:
        'What the currency’s move against the US dollar made of it, `{amount, pct}` (as spot’s `change.from_currency`): the two add up to `change` and `change_pct`',
    }),
    data_state: DataState.meta({ description: 'This metal’s own state (spot’s `groups.<metal>`): an outage of one metal is its own' }),
  })
  .meta({ description: 'One metal in more detail than the headline fields' })
  .register(components, { id: 'MetalLive' });

export const PriceEvent = z
  .object({
    currency: z.string().meta({ description: 'ISO 4217 code, upper case' }),
    unit: z.enum(UNIT_LABELS).meta({ description: 'The unit asked, as spot reports it: `oz` is `troy_oz`' }),
    price: inUnit('Gold'),
    ...(Object.fromEntries(METALS.filter((m) => m.id !== 'gold').map((m) => [m.id, inUnit(m.name)])) as Record<
      Exclude<MetalId, 'gold'>,
      ReturnType<typeof inUnit>
    >),
    bid: inUnit('Gold bid of the quotes feed; null unless that feed is fresh'),
    ask: inUnit('Gold ask of the quotes feed; null unless that feed is fresh'),
    change_pct: perMetal(() => z.number().nullable()).meta({
      description: 'Each metal’s move since the previous session’s close, percent, 2 decimals (spot’s `change.change_pct`); null while unknown',
    }),
    market: Market,
    data_state: DataState.meta({ description: 'The gold price’s state (spot’s `data_state`): stale is the last real price during an outage' }),
    updated_at: Timestamp.meta({ description: 'When this event was made' }),
    metals: perMetal(() => MetalLive).meta({ description: 'Each metal: its USD price, its change and its own data state' }),
    fx_rate: z.number().meta({ description: 'Units of `currency` per USD applied (spot’s `fx_rate`)' }),
    fx_stale: z.boolean().meta({
      description: 'As spot’s `fx_stale`: true when `fx_rate` comes from the last live FX table past its time or from the bundled snapshot',
    }),
    fx_state: DataState.meta({ description: 'The FX table’s own state (spot’s `groups.fx`): `source` `snapshot` for the bundled table' }),
  })
  .meta({
    description:
      'The data of a `price` event: every served metal in the requested currency and unit, from the same served price as spot, so the numbers equal spot’s. Sent on connect and whenever a price or a data state changes',
  })
  .register(components, { id: 'PriceEvent' });
export type PriceEvent = z.infer<typeof PriceEvent>;
export type MetalLive = z.infer<typeof MetalLive>;

export const HeartbeatEvent = z
  .object({
    every_s: z.number().positive().meta({
      description:
        'Seconds between heartbeats of a quiet stream: a client that hears nothing for twice this long can take it that its events are held back, and poll',
    }),
  })
  // Not a component: OpenAPI gives the stream one schema (PriceEvent); the stream's description names this one's field.
  .meta({ description: 'The data of a `heartbeat` event, sent when nothing else was for `every_s` seconds' });
export type HeartbeatEvent = z.infer<typeof HeartbeatEvent>;
