import { z } from 'zod';
import { FINENESS_WORDS, finenessFraction, isFineness } from '../reference/fineness';
import { KARAT_KEYS, KARATS, purity } from '../reference/karats';
import type { MetalId } from '../reference/metals';
import { refusal } from './query-fields';

// The purity fields (decisions §13, §31): gold's `karat` (spot's karats), and `fineness` for every metal, a fraction or
// parts per thousand. price.txt and /api/v1/value (and its MCP tool) take both, with the same words and the same rules.

const KARAT_WORDS = `${KARATS.join(', ')} (or written as spot's keys: ${KARAT_KEYS.join(', ')})`;
/** What `karat` accepts: the karats of spot's `karats` table, as numbers or as its keys. */
const KARAT_VALUES = [...KARATS.map(String), ...KARAT_KEYS] as [string, ...string[]];

/** Gold's karat, as spot's `karats` table has them: `18` or `18k`. */
export const KaratField = z.enum(KARAT_VALUES, { error: (iss) => refusal('karat', iss.input, KARAT_WORDS) });

/** The fine share a parsed query asks for (a karat ÷ 24, a fineness as a fraction), or undefined: pure. */
export function fineShare(query: { karat?: string; fineness?: number }): number | undefined {
  if (query.karat !== undefined) return purity(parseInt(query.karat, 10));
  return query.fineness === undefined ? undefined : finenessFraction(query.fineness);
}

const finenessRefusal = (iss: { input?: unknown }) => refusal('fineness', iss.input, FINENESS_WORDS);
/** A fineness in either form, 0 < f ≤ 1000 (lib/reference/fineness.ts reads which). */
export const FinenessField = z.number({ error: finenessRefusal }).refine(isFineness, { error: finenessRefusal });

type Ctx = z.RefinementCtx;

/**
 * The rules of purity: `karat` is gold's (with another metal, a 400 that says so), and one purity at most. `metal` is
 * the metal the query prices.
 */
export function purityRules(query: { karat?: string; fineness?: number }, metal: MetalId, ctx: Ctx): void {
  if (query.karat !== undefined && metal !== 'gold') {
    ctx.addIssue({
      code: 'custom',
      path: ['karat'],
      message: `Invalid karat with metal ${metal}: karats are purities of gold. Valid values: none with ${metal} (leave karat out, or give fineness); with metal=gold ${KARATS.join(', ')}`,
      params: { valid: [] },
    });
  } else if (query.karat !== undefined && query.fineness !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['fineness'],
      message: 'karat and fineness both give the purity: give one of them. Valid values: karat or fineness, not both',
      params: { valid: ['karat', 'fineness'] },
    });
  }
}
