import type { FxSeries } from '@/lib/sources/fx-history';
import { ratesOf } from '../../../support/fx-history';
import { longDailyRows, type OhlcRow } from '../../../support/yahoo';

// What the history step tests share: the fixture's real daily gold rows and real EUR rates per USD
// (tests/fixtures/SOURCES.md), and the tests' own arithmetic over them.

export const rows: OhlcRow[] = longDailyRows();
export const eur = ratesOf('EUR');
export const eurSeries: FxSeries = { code: 'EUR', d: [...eur.keys()], r: [...eur.values()], fetchedAt: 0 };
export const GRAMS_PER_OZ = 31.1034768;
/** Half away from zero, as the service rounds. */
export const round = (v: number, dp: number) => Math.round(v * 10 ** dp * (1 + Number.EPSILON)) / 10 ** dp;
/** `date` less `days` calendar days. */
export const minusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
/** The last EUR rate published on or before `date`, by a plain scan. */
export function eurOn(date: string): { rate: number; on: string } {
  let on = '';
  for (const d of eur.keys()) if (d <= date && d > on) on = d;
  return { rate: eur.get(on)!, on };
}
