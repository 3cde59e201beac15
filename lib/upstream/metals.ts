// What every live metal price must satisfy, whichever upstream gave it.

export type Metal = 'XAU' | 'XAG';

/** Plausible USD/oz bounds: far outside any price either metal has traded at; outside is garbage. */
const BOUNDS: Record<Metal, [number, number]> = { XAU: [100, 100_000], XAG: [1, 5_000] };

/** Why `price` cannot be a real USD/oz price of `metal`, or null when it can. */
export function implausible(metal: Metal, price: number): string | null {
  const [lo, hi] = BOUNDS[metal];
  return price < lo || price > hi ? `implausible ${metal} price ${price}` : null;
}
