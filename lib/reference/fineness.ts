import type { MetalId } from './metals';

// Purity for every metal (decisions §31): the fine share of an alloy, written as a fraction (0.925) or in parts per
// thousand (925, 999.9), the hallmark's way. Gold also takes karats (lib/reference/karats.ts: karat ÷ 24).

/** The largest fineness in parts per thousand: pure metal. */
export const MAX_PER_THOUSAND = 1000;

/** What `fineness` accepts, in words: every surface that refuses one says this. */
export const FINENESS_WORDS = 'a fraction above 0 up to 1 (0.925) or parts per thousand above 1 up to 1000 (925, 999.9); 1 is pure';

/** Whether `f` is a fineness in either form: 0 < f ≤ 1 a fraction, 1 < f ≤ 1000 parts per thousand. */
export const isFineness = (f: number) => Number.isFinite(f) && f > 0 && f <= MAX_PER_THOUSAND;

/** The fraction of a fineness given in either form: 925 → 0.925, 999.9 → 0.9999, 0.925 → 0.925; 1 is pure (never 1 per thousand). */
export function finenessFraction(f: number): number {
  return f > 1 ? f / MAX_PER_THOUSAND : f;
}

/** A common fineness of a metal: parts per thousand and what it is called, for docs and the converter. */
export interface CommonFineness {
  ppt: number;
  /** Its common name, when it has one. */
  name?: string;
}

/** The finenesses people hold, per metal, finest first. */
export const COMMON_FINENESS: Record<MetalId, readonly CommonFineness[]> = {
  gold: [
    { ppt: 999.9, name: 'fine gold, bullion bars and coins' },
    { ppt: 999, name: '24k jewellery' },
    { ppt: 995, name: 'the London Good Delivery minimum' },
    { ppt: 965, name: 'Thai gold' },
    { ppt: 916, name: '22k' },
    { ppt: 750, name: '18k' },
    { ppt: 585, name: '14k' },
    { ppt: 375, name: '9k' },
  ],
  silver: [
    { ppt: 999, name: 'fine silver' },
    { ppt: 958, name: 'Britannia silver' },
    { ppt: 925, name: 'sterling silver' },
    { ppt: 900, name: 'coin silver' },
    { ppt: 800 },
  ],
  platinum: [{ ppt: 999.5, name: 'fine platinum' }, { ppt: 950 }],
  palladium: [{ ppt: 999.5, name: 'fine palladium' }, { ppt: 950 }],
};
