import { expect } from 'vitest';

// Independent arithmetic for assertions: the weight constants of docs/contract.md, written out here on purpose.
export const G_PER_OZ = 31.1034768;
export const OZ_PER_KG = 32.1507466;
export const OZ_PER_TONNE = 32150.7466;
/** Grams in each unit, by definition (decisions §3, §17, §31). */
export const UNIT_GRAMS = {
  oz: G_PER_OZ,
  gram: 1,
  kg: 1000,
  tola: 11.6638038,
  tael: 37.429,
  baht: 15.244,
  chi: 3.75,
  luong: 37.5,
  don: 3.75,
  pavan: 8,
  dwt: 1.55517384,
  grain: 0.06479891,
} as const;

/** `actual` is `exact` rounded to `decimals` places (within half a unit, and no more decimals than that). */
export function expectRounded(actual: unknown, exact: number, decimals: number): void {
  expect(typeof actual).toBe('number');
  const a = actual as number;
  const unit = 10 ** -decimals;
  expect(Math.abs(a - exact), `${a} vs ${exact} at ${decimals} dp`).toBeLessThanOrEqual(unit / 2 + 1e-9 * Math.max(1, Math.abs(exact)));
  expect(Math.abs(a / unit - Math.round(a / unit)), `${a} has more than ${decimals} decimals`).toBeLessThan(1e-6);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `ok` holds (for hooks, where expect.poll is not allowed). */
export async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms (last value ${JSON.stringify(v)})`);
    await sleep(250);
  }
}
