// Weight constants and rounding. Rounding happens once, on output, from unrounded inputs.

/** Grams in one troy ounce. */
export const GRAMS_PER_OZ = 31.1034768;
/** Troy ounces in one kilogram. */
export const OZ_PER_KG = 32.1507466;
/** Troy ounces in one metric tonne. */
export const OZ_PER_TONNE = 32150.7466;

export const UNITS = ['oz', 'gram', 'kg'] as const;
export type Unit = (typeof UNITS)[number];

/** Price per `unit` from a price per troy ounce. */
export function perUnit(perOz: number, unit: Unit): number {
  if (unit === 'gram') return perOz / GRAMS_PER_OZ;
  if (unit === 'kg') return perOz * OZ_PER_KG;
  return perOz;
}

/** Decimals used for a price in `unit`: oz 2, gram 4, kg 2. */
export const UNIT_DECIMALS: Record<Unit, number> = { oz: 2, gram: 4, kg: 2 };

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round((value + Number.EPSILON * Math.abs(value)) * f) / f;
}

/** Rounds, passing null through. */
export function roundOrNull(value: number | null, decimals: number): number | null {
  return value === null || !Number.isFinite(value) ? null : round(value, decimals);
}
