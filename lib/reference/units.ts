// Weight units, constants and rounding. Rounding happens once, on output, from unrounded inputs.

/** Grams in one troy ounce. */
export const GRAMS_PER_OZ = 31.1034768;
/** Troy ounces in one kilogram. */
export const OZ_PER_KG = 32.1507466;
/** Troy ounces in one metric tonne. */
export const OZ_PER_TONNE = 32150.7466;

export interface UnitEntry {
  /** What the `unit` parameter takes. */
  id: string;
  /** How spot reports it in `xau.unit`. */
  label: string;
  /** Its name in English, for docs, tool text and the widget builder. */
  name: string;
  /** Grams in one unit. */
  grams: number;
  /** Decimals of a price per unit. */
  decimals: number;
  /** What it is, in words, for docs: its definition in grams or in other units. */
  definition: string;
  /** Where it is the unit of the gold market, for docs and tool text. */
  note?: string;
}

/**
 * The one list of weight units: REST, MCP, the widgets, the converter, OpenAPI, the docs and the
 * widget builder all read it. Troy ounce, gram and kilogram use the exact constants above; every
 * other unit is defined by its grams. A price per unit smaller than a gram has 4 decimals, as per gram.
 */
export const UNIT_LIST = [
  { id: 'oz', label: 'troy_oz', name: 'troy ounce', grams: GRAMS_PER_OZ, decimals: 2, definition: '31.1034768 g exactly' },
  { id: 'gram', label: 'gram', name: 'gram', grams: 1, decimals: 4, definition: 'the metric gram' },
  { id: 'kg', label: 'kg', name: 'kilogram', grams: 1000, decimals: 2, definition: '1,000 g (32.1507466 troy ounces)' },
  {
    id: 'tola',
    label: 'tola',
    name: 'tola',
    grams: 11.6638038,
    decimals: 2,
    definition: '11.6638038 g (180 grains, 3/8 troy ounce)',
    note: 'India, Pakistan and the Gulf (180 grains)',
  },
  {
    id: 'tael',
    label: 'tael',
    name: 'tael',
    grams: 37.429,
    decimals: 2,
    definition: '37.429 g',
    note: 'Hong Kong (the tael of the Chinese Gold & Silver Exchange Society)',
  },
  { id: 'baht', label: 'baht', name: 'baht', grams: 15.244, decimals: 2, definition: '15.244 g', note: 'Thailand (the bullion baht)' },
  {
    id: 'chi',
    label: 'chi',
    name: 'chi',
    grams: 3.75,
    decimals: 2,
    definition: '3.75 g (a tenth of a luong)',
    note: 'Vietnam (chỉ, the unit of jewellery and ring gold)',
  },
  {
    id: 'luong',
    label: 'luong',
    name: 'luong',
    grams: 37.5,
    decimals: 2,
    definition: '37.5 g (ten chi)',
    note: 'Vietnam (lượng or cây, the unit of the gold bar)',
  },
  { id: 'don', label: 'don', name: 'don', grams: 3.75, decimals: 2, definition: '3.75 g', note: 'Korea (돈, the unit of the gold market)' },
  {
    id: 'pavan',
    label: 'pavan',
    name: 'pavan',
    grams: 8,
    decimals: 2,
    definition: '8 g (the weight of a sovereign)',
    note: 'South India (Kerala and Tamil Nadu, where it is also called a sovereign)',
  },
  {
    id: 'dwt',
    label: 'dwt',
    name: 'pennyweight',
    grams: 1.55517384,
    decimals: 2,
    definition: '1.55517384 g (1/20 troy ounce, 24 grains)',
    note: 'the US and UK jewellery trade',
  },
  {
    id: 'grain',
    label: 'grain',
    name: 'grain',
    grams: 0.06479891,
    decimals: 4,
    definition: '0.06479891 g exactly (1/480 troy ounce)',
    note: 'coin and bullet weights, and the old English and American weights',
  },
] as const satisfies readonly UnitEntry[];

export type Unit = (typeof UNIT_LIST)[number]['id'];
export type UnitLabel = (typeof UNIT_LIST)[number]['label'];

export const UNITS = UNIT_LIST.map((u) => u.id) as unknown as readonly [Unit, ...Unit[]];
export const UNIT_LABELS = UNIT_LIST.map((u) => u.label) as unknown as readonly [UnitLabel, ...UnitLabel[]];

export function unitEntry(unit: Unit): (typeof UNIT_LIST)[number] {
  return UNIT_LIST.find((u) => u.id === unit)!;
}

/** Price per `unit` from a price per troy ounce. */
export function perUnit(perOz: number, unit: Unit): number {
  if (unit === 'oz') return perOz;
  if (unit === 'gram') return perOz / GRAMS_PER_OZ;
  if (unit === 'kg') return perOz * OZ_PER_KG;
  return (perOz / GRAMS_PER_OZ) * unitEntry(unit).grams;
}

/** Decimals used for a price in `unit`: gram and grain 4, every other unit 2. */
export const UNIT_DECIMALS = Object.fromEntries(UNIT_LIST.map((u) => [u.id, u.decimals])) as Record<Unit, number>;

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  // Halves go away from zero on both sides (Math.round alone takes −2.5 to −2); the epsilon keeps a
  // half written in decimal (1.005) a half in binary. No −0.
  const r = Math.round(Math.abs(value) * (1 + Number.EPSILON) * f) / f;
  return value < 0 && r !== 0 ? -r : r;
}

/** Rounds, passing null through. */
export function roundOrNull(value: number | null, decimals: number): number | null {
  return value === null || !Number.isFinite(value) ? null : round(value, decimals);
}
