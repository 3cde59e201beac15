// The precious metals this service serves live, one entry each. The feeds, the served-price choice,
// the sampler, spot's per-metal fields and groups, the intraday symbols, the MCP tool and the widgets
// all iterate this list: a fifth metal is one more entry here.

export interface MetalEntry {
  /** Our name for it: spot's `groups` key, the widgets' `metal` option. */
  id: string;
  /** Its ISO 4217 code, as gold-api.com (`/price/XAU`) and the quotes feed (`XAU/USD`) name it. */
  symbol: string;
  /** Its name in English, for text. */
  name: string;
  /** Its intraday series symbol. */
  intraday: string;
  /** Plausible USD per troy ounce, far outside any price it has traded at; outside is upstream garbage. */
  bounds: readonly [number, number];
  /**
   * Plausible USD per troy ounce of a monthly average since 1960, where the World Bank's workbook has one: wider than
   * `bounds`, as gold was pegged at $35 and silver sold under $1 then.
   */
  monthlyBounds?: readonly [number, number];
  /** Spot field holding its USD per troy ounce price. */
  usdField: string;
  /** Spot field naming the source served. */
  sourceField: string;
  /** Spot field holding how its price moved since the previous close (decisions §15). */
  changeField: string;
}

export const METALS = [
  {
    id: 'gold',
    symbol: 'XAU',
    name: 'Gold',
    intraday: 'xau',
    bounds: [100, 100_000],
    monthlyBounds: [20, 100_000],
    usdField: 'spot_usd_oz',
    sourceField: 'price_source',
    changeField: 'change',
  },
  {
    id: 'silver',
    symbol: 'XAG',
    name: 'Silver',
    intraday: 'xag',
    bounds: [1, 5_000],
    monthlyBounds: [0.25, 5_000],
    usdField: 'silver_usd_oz',
    sourceField: 'silver_source',
    changeField: 'silver_change',
  },
  {
    id: 'platinum',
    symbol: 'XPT',
    name: 'Platinum',
    intraday: 'xpt',
    bounds: [50, 50_000],
    monthlyBounds: [20, 50_000],
    usdField: 'platinum_usd_oz',
    sourceField: 'platinum_source',
    changeField: 'platinum_change',
  },
  {
    id: 'palladium',
    symbol: 'XPD',
    name: 'Palladium',
    intraday: 'xpd',
    bounds: [50, 50_000],
    usdField: 'palladium_usd_oz',
    sourceField: 'palladium_source',
    changeField: 'palladium_change',
  },
] as const satisfies readonly MetalEntry[];

export type Metal = (typeof METALS)[number];
export type MetalId = Metal['id'];
export type MetalSymbol = Metal['symbol'];
export type IntradaySymbol = Metal['intraday'];
/** Every metal but gold: gold's fields on spot are its core (`spot_usd_oz`, `xau`); the others sit beside it. */
export type OtherMetal = Exclude<Metal, { id: 'gold' }>;

type Tuple<T> = readonly [T, ...T[]];

export const METAL_IDS = METALS.map((m) => m.id) as unknown as Tuple<MetalId>;
export const INTRADAY_SYMBOLS = METALS.map((m) => m.intraday) as unknown as Tuple<IntradaySymbol>;
export const OTHER_METALS = METALS.filter((m): m is OtherMetal => m.id !== 'gold');

export function metalById(id: MetalId): Metal {
  return METALS.find((m) => m.id === id)!;
}

export function metalBySymbol(symbol: MetalSymbol): Metal {
  return METALS.find((m) => m.symbol === symbol)!;
}

export function metalByIntraday(symbol: IntradaySymbol): Metal {
  return METALS.find((m) => m.intraday === symbol)!;
}

/** Words for a list of names: "a, b and c". */
export function listed(names: readonly string[], last = 'and'): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}
