// Gold purity by karat: the fine-gold share of an alloy is karat ÷ 24 (24k counted as pure). The
// spot `karats` table, the MCP price tool and the converter widget offer these purities.

export const KARATS = [24, 22, 21, 18, 14, 10, 9] as const;
export type Karat = (typeof KARATS)[number];
export type KaratKey = `${Karat}k`;

export const KARAT_KEYS = KARATS.map((k) => `${k}k`) as KaratKey[];

/** Fine gold per unit of alloy. */
export function purity(karat: number): number {
  return karat / 24;
}
