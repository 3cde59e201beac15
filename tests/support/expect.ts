import { expect } from 'vitest';

// Independent arithmetic for assertions: the constants of decisions §3, written out here on purpose.
export const G_PER_OZ = 31.1034768;
export const OZ_PER_KG = 32.1507466;
export const OZ_PER_TONNE = 32150.7466;

/** `actual` is `exact` rounded to `decimals` places (within half a unit, and no more decimals than that). */
export function expectRounded(actual: unknown, exact: number, decimals: number): void {
  expect(typeof actual).toBe('number');
  const a = actual as number;
  const unit = 10 ** -decimals;
  expect(Math.abs(a - exact), `${a} vs ${exact} at ${decimals} dp`).toBeLessThanOrEqual(unit / 2 + 1e-9 * Math.max(1, Math.abs(exact)));
  expect(Math.abs(a / unit - Math.round(a / unit)), `${a} has more than ${decimals} decimals`).toBeLessThan(1e-6);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
