import { metalBySymbol, type MetalSymbol } from '../../reference/metals';

// What every live metal price must satisfy, whichever upstream gave it.

export type Metal = MetalSymbol;

/** Why `price` cannot be a real USD/oz price of `metal` (outside its plausible bounds in lib/reference/metals.ts), or null when it can. */
export function implausible(metal: Metal, price: number): string | null {
  const [lo, hi] = metalBySymbol(metal).bounds;
  return price < lo || price > hi ? `implausible ${metal} price ${price}` : null;
}
