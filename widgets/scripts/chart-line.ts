import type { Chart } from '../../lib/schemas/chart';
import type { History } from '../../lib/schemas/history';
import type { Intraday } from '../../lib/schemas/intraday';
import type { ChartLine } from '../chart';
import { fill, percent } from '../format';
import type { Strings } from '../i18n';
import type { LineRange } from '../kinds';
import type { LinePoint } from './line-frame';

// What the chart widget and the price pages' chart both do with a range's answer, in the browser: its real
// points placed by time, the times written as the range shows them, and the range's change in words.

type Point = Intraday['points'][number] | Chart['points'][number] | History['points'][number];
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;

/**
 * The points of an answer (intraday samples, OHLC closes, daily or monthly closes), oldest first, each at its own
 * time; a daily series answered whole (a server before `from`) is cut at `from`.
 */
export function linePoints(points: readonly Point[], from = ''): LinePoint[] {
  return (
    points
      .filter((p) => !('d' in p) || p.d >= from)
      // A chart's daily and monthly points carry a close (only the London-time series has none, and no chart asks for it).
      .map((p) => ('d' in p ? { time: day(p.d), value: p.c! } : { time: p.t, value: 'p' in p ? p.p : p.c }))
  );
}

/** Ranges whose points are minutes or hours apart: their times are written with the hour. */
export const isIntradayRange = (range: string) => range === '1d' || range === '5d';

/**
 * A time as the range shows it: with the hour for the intraday ranges; a date (read in UTC, the same date
 * everywhere) for daily bars; month and year for monthly averages.
 */
export function timeWords(t: number, locale: string, range: string, line: ChartLine): string {
  return new Intl.DateTimeFormat(
    locale,
    isIntradayRange(range)
      ? { dateStyle: 'medium', timeStyle: 'short' }
      : line === 'monthly'
        ? { year: 'numeric', month: 'short', timeZone: 'UTC' }
        : { dateStyle: 'medium', timeZone: 'UTC' },
  ).format(new Date(t * 1000));
}

/** How a range's change is written ("{pct} over 1 year"; MAX: "{pct} since {year}"), in the page's language. */
const CHANGE_KEY = {
  '1d': 'chg1d',
  '5d': 'chg5d',
  '1mo': 'chg1mo',
  '3mo': 'chg3mo',
  '6mo': 'chg6mo',
  '1y': 'chg1y',
  '5y': 'chg5y',
  '10y': 'chg10y',
  max: 'chgMax',
} as const satisfies Record<LineRange, keyof Strings>;

/**
 * The range's change in words, from the first and the last point drawn ("+4.20% over 1 year", "−0.31 % seit 1960";
 * MAX names the year its line starts): the change of the drawn line itself, so it describes the series the caption
 * names, in its currency and unit. '' with fewer than two points (nothing can be said to have moved).
 */
export function changeWords(points: readonly LinePoint[], range: LineRange, locale: string, t: Strings): string {
  if (points.length < 2 || !(points[0].value > 0)) return '';
  const pct = (points[points.length - 1].value / points[0].value - 1) * 100;
  const year = new Date(points[0].time * 1000).getUTCFullYear();
  return fill(t[CHANGE_KEY[range]], { pct: percent(pct, locale), year: String(year) });
}
