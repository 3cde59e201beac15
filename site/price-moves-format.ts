import type { Strings } from '@/widgets/i18n';
import type { MoveSeries } from './price-performance-data';

// What the performance and years tables share: each series' name, dates and years in the page's locale.

/** A change's class on the tables' cells: `up`, `down`, or none when level. */
export const direction = (n: number) => (n > 0 ? 'up' : n < 0 ? 'down' : undefined);

/** A series' name in the page's language (the chart's captions' words). */
export function seriesName(series: MoveSeries, t: Strings): string {
  return series === 'spot' ? t.lineSpot : series === 'futures' ? t.lineFutures : t.lineMonthly;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: 'day' | 'month' | 'year'): Intl.DateTimeFormat {
  const key = `${locale} ${options}`;
  let f = formats.get(key);
  if (!f) {
    if (formats.size >= 100) formats.clear();
    const o: Intl.DateTimeFormatOptions =
      options === 'day' ? { dateStyle: 'medium' } : options === 'month' ? { year: 'numeric', month: 'short' } : { year: 'numeric' };
    formats.set(key, (f = new Intl.DateTimeFormat(locale, { ...o, timeZone: 'UTC' })));
  }
  return f;
}

const at = (d: string) => new Date(`${d}T00:00:00Z`);

/** A point's date: its day, or its month on the monthly series (whose points are months). */
export function pointDate(d: string, series: MoveSeries, locale: string): string {
  return dateFormat(locale, series === 'monthly' ? 'month' : 'day').format(at(d));
}

/** From one point's date to another's, as the locale writes a span ("Apr 16, 2025 – Apr 16, 2026"). */
export function pointDates(from: string, to: string, series: MoveSeries, locale: string): string {
  return dateFormat(locale, series === 'monthly' ? 'month' : 'day').formatRange(at(from), at(to));
}

/** A calendar year in the locale's digits. */
export function yearOf(year: number, locale: string): string {
  return dateFormat(locale, 'year').format(at(`${year}-07-01`));
}
