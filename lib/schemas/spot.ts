import { z } from 'zod';
import { components } from './components';
import { KARAT_KEYS, type KaratKey } from '../reference/karats';
import { METALS, OTHER_METALS, type OtherMetal, type MetalId } from '../reference/metals';
import { UNIT_LABELS, UNIT_LIST, UNITS } from '../reference/units';
import { DataState, Timestamp } from './common';
import { flag, oneOf, refusal } from './query-fields';

const usd = (description: string) => z.number().meta({ description });
const usdOrNull = (description: string) => z.number().nullable().meta({ description });

const CURRENCY_VALUES = 'an ISO 4217 code such as USD, EUR, GBP, JPY or INR (160+ supported)';

/** "oz (troy ounce), gram, …" and "oz 2 decimals, gram 4, …": the unit list in words. */
const UNIT_WORDS = UNIT_LIST.map((u) => (u.id === u.name ? u.id : `${u.id} (${u.name})`)).join(', ');
const UNIT_ROUNDING = UNIT_LIST.map((u, i) => `${u.id} ${u.decimals}${i === 0 ? ' decimals' : ''}`).join(', ');

// Gold's fields are spot's core; every other served metal adds its price and its source beside it.
const otherPrices = Object.fromEntries(OTHER_METALS.map((m) => [m.usdField, usdOrNull(`${m.symbol}/USD per troy ounce; null when unavailable`)])) as {
  [M in OtherMetal as M['usdField']]: ReturnType<typeof usdOrNull>;
};
const otherSources = Object.fromEntries(
  OTHER_METALS.map((m) => [
    m.sourceField,
    z.string().meta({ description: `The source of the ${m.name.toLowerCase()} price served, chosen like the gold one, or \`unavailable\`` }),
  ]),
) as { [M in OtherMetal as M['sourceField']]: z.ZodString };

export const SpotQuery = z.object({
  currency: z
    .string({ error: (iss) => refusal('currency', iss.input, CURRENCY_VALUES) })
    .max(16, { error: (iss) => refusal('currency', iss.input, CURRENCY_VALUES) })
    .default('USD')
    .meta({ description: 'ISO 4217 code from the live FX table, case-insensitive', examples: ['EUR'] }),
  unit: oneOf('unit', UNITS, 'Unsupported unit')
    .default('oz')
    .meta({ description: `Weight unit of \`xau.price\` and \`karats\`: ${UNIT_WORDS}` }),
  compact: flag('compact').optional().meta({ description: '`1` omits `fx_rates` (the 160-entry FX table: about half the response)' }),
  debug: flag('debug').optional().meta({ description: '`1` appends the `debug` object' }),
});
export type SpotQuery = z.infer<typeof SpotQuery>;

export const Groups = z
  .object({ ...(Object.fromEntries(METALS.map((m) => [m.id, DataState])) as Record<MetalId, typeof DataState>), fx: DataState, tokens: DataState })
  .meta({
    description: `One data state per data group of the spot response; ${METALS.map((m) => m.id).join(', ')} describe the source served, each on its own`,
  })
  .register(components, { id: 'Groups' });

export const Market = z
  .object({
    status: z.enum(['open', 'closed']).meta({ description: 'Whether spot gold and silver are trading now' }),
    reason: z.enum(['weekend', 'daily_break', 'holiday']).nullable().meta({
      description:
        'Why it is closed, null when open: weekend (Friday 17:00 to Sunday 18:00 New York time), daily_break (17:00–18:00 Monday to Thursday), holiday (25 December, 1 January, Good Friday: from 17:00 the day before until 18:00 on the day); holiday wins over weekend, weekend over daily_break',
    }),
    next_change: Timestamp.meta({ description: 'The next close when open, the next open when closed (ISO 8601, UTC)' }),
  })
  .meta({
    description:
      'Spot gold market hours, New York time with daylight saving. Freshness does not depend on it: while closed, a fresh price simply does not move',
  })
  .register(components, { id: 'Market' });

const inUnit = (description: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${description}, in \`currency\` per \`unit\`, rounded as \`xau.price\`` });

const changePart = (description: string) =>
  z
    .object({
      amount: z.number().meta({ description: 'Per `unit`, in `currency`, rounded as `xau.price`' }),
      pct: z.number().meta({ description: 'Percent of the previous close, 2 decimals' }),
    })
    .nullable()
    .meta({ description });

export const PriceChange = z
  .object({
    state: z.enum(['ok', 'unavailable']).meta({
      description:
        'ok, or unavailable when no bar before the current session exists yet (a new deployment before its first full session): then every number is null',
    }),
    session_date: z.string().meta({
      description:
        'Date of the current trading session, YYYY-MM-DD: the New York date on which it closes at 17:00 (Sunday 18:00 to Monday 17:00 is Monday). While the market is closed, the last session that closed',
    }),
    open: inUnit('First fresh price of the current session; null before it has one'),
    high: inUnit('Highest fresh price served during the current session'),
    low: inUnit('Lowest fresh price served during the current session'),
    previous_close: inUnit('Close of the latest daily spot bar dated before the current session'),
    previous_close_date: z.string().nullable().meta({ description: 'Date of that bar, YYYY-MM-DD' }),
    change: inUnit('The shown price minus the shown `previous_close`, exactly'),
    change_pct: z.number().nullable().meta({ description: '`change` ÷ `previous_close` × 100, 2 decimals (halves away from zero)' }),
    fx_basis: z.enum(['close', 'current']).nullable().meta({
      description:
        'close: the previous close converted at the FX table recorded with its bar, the price at the fresh table in use now; current: both at the table in use now (imported bars carry no FX table, or the table in use is not fresh: the last live one or the bundled snapshot)',
    }),
    from_metal: changePart(
      "What the metal's own move made of `change`: with p the USD price per troy ounce and F the currency per USD (0 at the previous close, 1 now), " +
        '`amount` = (p₁ − p₀)·F₀ per unit, rounded as `xau.price`; `pct` = (p₁ ÷ p₀ − 1) × 100, 2 decimals: the change in US dollars. ' +
        'In USD it is the whole change (`amount` = `change`, `pct` = `change_pct`), whatever `fx_basis`. Null when `state` is unavailable, ' +
        'and in another currency with `fx_basis` current (the rate at that close is not known, so the two parts cannot be told apart)',
    ),
    from_currency: changePart(
      "What the currency's move against the US dollar made of `change`: `amount` = `change` − `from_metal.amount` and `pct` = `change_pct` − " +
        '`from_metal.pct`, so the parts shown add up to the change shown exactly; within rounding of p₁·(F₁ − F₀) per unit and ' +
        '(p₁ ÷ p₀)(F₁ ÷ F₀ − 1) × 100. Positive when the currency fell against the dollar (more of it per dollar), negative when it rose. ' +
        'In USD `{amount: 0, pct: 0}`; null when `from_metal` is',
    ),
  })
  .meta({
    description:
      'How the price moved since the previous session’s close, from the daily spot bars this service records from the prices it serves (or an operator imported); never from futures, and split into what the metal and what the currency made of it (`from_metal`, `from_currency`). While the market is closed it compares the last close with the one before',
  })
  .register(components, { id: 'PriceChange' });

// Every other served metal's change sits beside gold's under its own field.
const otherChanges = Object.fromEntries(
  OTHER_METALS.map((m) => [m.changeField, PriceChange.meta({ description: `The same for ${m.name.toLowerCase()}` })]),
) as {
  [M in OtherMetal as M['changeField']]: typeof PriceChange;
};

const SourceEntry = z.object({
  name: z.string().meta({ description: 'The source: `gold-api.com` (primary) or `swissquote.com` (quotes feed, mid of bid and ask)' }),
  price_usd_oz: usdOrNull('What this source holds, USD per troy ounce; null when it has never answered'),
  as_of: Timestamp.nullable().meta({ description: "The source's own timestamp of that price" }),
  status: z
    .enum(['fresh', 'stale', 'unavailable'])
    .meta({ description: 'fresh: answered within its cache TTL; stale: down, its last real price; unavailable: never answered' }),
});

export const CrossCheck = z
  .object({
    status: z.enum(['agree', 'diverged', 'single']).meta({
      description:
        'agree: both sources fresh and within 1.5%; diverged: both fresh and more than 1.5% apart (the one closer to the last price served is served); single: fewer than two fresh sources',
    }),
    difference_pct: usdOrNull('(primary ÷ quotes-feed mid − 1) × 100, 3 decimals; null unless both are fresh'),
  })
  .meta({ description: 'Agreement of the two live gold sources' })
  .register(components, { id: 'CrossCheck' });

export const Spot = z
  .object({
    xau: z.object({
      price: usd(`Gold price in \`currency\` per \`unit\` (${UNIT_ROUNDING})`),
      currency: z.string().meta({ description: 'ISO 4217 code, upper case' }),
      unit: z.enum(UNIT_LABELS).meta({ description: 'The unit asked, as reported: `oz` is `troy_oz`, every other unit its own name' }),
    }),
    karats: z
      .object(Object.fromEntries(KARAT_KEYS.map((k) => [k, z.number()])) as Record<KaratKey, z.ZodNumber>)
      .meta({ description: 'Gold of each purity (karat ÷ 24) in `currency` per `unit`, rounded as `xau.price`' }),
    spot_usd_oz: usd('XAU/USD per troy ounce, unrounded as the source gave it (the quotes feed: mid of bid and ask)'),
    per_gram_usd: usd('USD per gram (4 decimals)'),
    per_kg_usd: usd('USD per kilogram (2 decimals)'),
    fx_rate: usd('Units of `currency` per USD applied to `xau.price`'),
    fx_rates: z
      .record(z.string(), z.number())
      .optional()
      .meta({ description: 'Rates against USD of every code in the FX table in use; omitted with compact=1' }),
    ...otherPrices,
    gold_silver_ratio: usdOrNull('Gold ÷ silver, 2 decimals'),
    xaut_usd: usdOrNull('Tether Gold (XAUT) price, USD'),
    paxg_usd: usdOrNull('PAX Gold (PAXG) price, USD'),
    xaut_gold_ratio: usdOrNull('XAUT ÷ gold spot (above 1 is a premium), 4 decimals'),
    paxg_gold_ratio: usdOrNull('PAXG ÷ gold spot, 4 decimals'),
    btc_usd: usdOrNull('Bitcoin price, USD'),
    btc_gold_oz: usdOrNull('Troy ounces of gold one Bitcoin buys, 4 decimals'),
    btc_gold_kg: usdOrNull('Kilograms of gold one Bitcoin buys, 4 decimals'),
    btc_market_cap_usd: usdOrNull('Bitcoin market capitalisation, USD'),
    gold_market_cap_usd: usdOrNull('Spot × above-ground stock in troy ounces, USD'),
    btc_vs_gold_mcap_pct: usdOrNull('Bitcoin market cap as percent of gold market cap, 2 decimals'),
    bitcoin_gold_parity_usd: usdOrNull('Bitcoin price at which its market cap equals gold’s, 2 decimals'),
    gold_supply_tonnes: usd('Total above-ground gold stock, tonnes (World Gold Council)'),
    annual_production_tonnes: usd('Annual mine production, tonnes (World Gold Council)'),
    underground_reserves_tonnes: usd('Mineable underground reserves, tonnes (USGS)'),
    cb_reserves_tonnes: usd('World official gold holdings, tonnes (World Gold Council / IMF IFS)'),
    cb_top_holder_usa_tonnes: usd('United States official holdings, tonnes'),
    cb_net_purchases_tonnes: usd('Central-bank net purchases in the latest full year, tonnes'),
    cb_reserves_pct_supply: usd('Official holdings as percent of above-ground stock, 2 decimals'),
    cb_share_global_reserves_pct: usd('Gold as percent of world official reserves, 2 decimals'),
    price_source: z.string().meta({
      description:
        'The source of the gold price served: `gold-api.com` (primary), `swissquote.com` (quotes feed, when the primary is down or diverged), or `unavailable`',
    }),
    fx_source: z.string(),
    ...otherSources,
    token_source: z.string(),
    sources: z.array(SourceEntry).meta({ description: 'Every live gold source with what it holds now, primary first' }),
    cross_check: CrossCheck,
    bid_usd_oz: usdOrNull('Gold bid of the quotes feed, USD per troy ounce; null unless that feed is fresh'),
    ask_usd_oz: usdOrNull('Gold ask of the quotes feed, USD per troy ounce; null unless that feed is fresh'),
    quote_source: z.string().meta({ description: 'Attribution of `bid_usd_oz` and `ask_usd_oz`, or `unavailable`' }),
    market: Market,
    change: PriceChange,
    ...otherChanges,
    data_state: DataState,
    groups: Groups,
    stale: z.boolean().meta({ description: 'True when the last known real gold price is served during an outage' }),
    price_as_of: Timestamp.meta({ description: 'When the gold price was sourced; differs from `updated_at` only when stale' }),
    fx_stale: z.boolean().meta({ description: 'True when FX rates are not from the live feed this cycle' }),
    stats_as_of: z.string().meta({ description: 'Vintage date of the supply and reserve statistics' }),
    updated_at: Timestamp.meta({ description: 'Response generation time' }),
    source: z.string(),
    docs: z.string(),
    debug: z
      .object({
        uptime_s: z.number().int(),
        price_age_s: z.number().int().nullable(),
        fx_cache_age_s: z.number().int().nullable(),
        token_cache_age_s: z.number().int().nullable(),
        store: z.enum(['embedded', 'embedded-degraded', 'kv', 'kv-degraded', 'redis', 'redis-degraded']).meta({
          description:
            'State backend: `embedded` (SQLite in DATA_DIR), `kv` (shared Vercel KV / Upstash Redis over REST), `redis` (a shared Redis over TCP, REDIS_URL); `-degraded` when it cannot be used (KV or Redis unreachable, DATA_DIR unusable, disk full): this instance answers from memory and the upstreams',
        }),
        store_degraded_since: z.string().nullable().meta({ description: 'Start of the current store outage (ISO 8601), null when not degraded' }),
      })
      .optional()
      .meta({ description: 'With debug=1 only: cache ages in seconds and the state backend' }),
  })
  .meta({ description: 'Live spot gold with silver, FX, tokens, Bitcoin comparison and statistics' })
  .register(components, { id: 'Spot' });
export type Spot = z.infer<typeof Spot>;
