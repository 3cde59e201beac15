import { daysBefore } from '../calendar/dates';
import { round, UNIT_DECIMALS, type Unit } from '../reference/units';
import type { HistoryGroup } from '../schemas/history';
import { keep, pointsBytes, seriesCache } from './cache-budget';
import type { View } from './history-convert';
import { lastOnOrBefore, roundPoint, type OutPoint, type RawPoint, type SeriesKind } from './history-points';
import type { Bounds } from './history-window';

// Step 4 of a history answer (lib/series/history.ts), group: the window's points, grouped into weekly, monthly or yearly
// bars when asked. A named range is what many requests share: it is cut once per view, window and grouping, within the
// series budget. A window of arbitrary dates is cut for its request alone (repeats of one URL are the response cache's).

/** Monday of the ISO week of `date`. */
function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return daysBefore(date, (day + 6) % 7);
}

const KEY_OF: Record<HistoryGroup, (date: string) => string> = {
  week: isoWeek,
  month: (d) => d.slice(0, 7),
  year: (d) => d.slice(0, 4),
};

/**
 * Points grouped into bars per ISO week, calendar month or calendar year: open the first point's (its close where the
 * series has no open), high the highest, low the lowest (closes where it has none), close the last, `d` the first
 * point's date, `days` how many there were; a year also the average of its closes (`avg`). A converted bar carries
 * the rate of its close and that rate's date.
 */
export function groupPoints(points: readonly RawPoint[], by: HistoryGroup): RawPoint[] {
  const keyOf = KEY_OF[by];
  const out: RawPoint[] = [];
  let key = '';
  let bar: RawPoint | null = null;
  let sum = 0;
  for (const p of points) {
    const k = keyOf(p.d);
    const h = p.h ?? p.c;
    const l = p.l ?? p.c;
    if (!bar || k !== key) {
      key = k;
      bar = { d: p.d, o: p.o ?? p.c, c: p.c, h, l, days: 0 };
      sum = 0;
      out.push(bar);
    }
    bar.c = p.c;
    bar.h = Math.max(bar.h!, h);
    bar.l = Math.min(bar.l!, l);
    bar.days!++;
    if (by === 'year') bar.avg = (sum += p.c) / bar.days!;
    if (p.fx !== undefined) {
      bar.fx = p.fx;
      const rateDate = p.fx_d ?? p.d;
      if (rateDate !== bar.d) bar.fx_d = rateDate;
      else delete bar.fx_d;
    }
  }
  return out;
}

/**
 * Each yearly bar's change against the last close of the calendar year before, from rounded closes so the figures
 * add up: the bar before it in the answer, or for the first the series' last point of that year even when it lies
 * before the window (the year's change does not depend on where a window starts). Null when the series has no point
 * in the year before (its first year, a gap of years in a currency's rates).
 */
function yearOverYear(bars: RawPoint[], view: View, unit: Unit): RawPoint[] {
  const dp = UNIT_DECIMALS[unit];
  const yearOf = (d: string) => Number(d.slice(0, 4));
  let before: { year: number; c: number } | null = null;
  if (bars.length > 0) {
    const k = lastOnOrBefore(view.dates, `${yearOf(bars[0].d) - 1}-12-31`);
    if (k >= 0) before = { year: yearOf(view.dates[k]), c: round(view.rawOf(k, k + 1)[0].c, dp) };
  }
  for (const bar of bars) {
    const year = yearOf(bar.d);
    const c = round(bar.c, dp);
    const known = before !== null && before.year === year - 1;
    bar.change = known ? round(c - before!.c, dp) : null;
    bar.change_pct = known ? round((c / before!.c - 1) * 100, 2) : null;
    before = { year, c };
  }
  return bars;
}

/** The points of the window `b` of `view`, grouped by `group` when given, rounded as answered. */
export function cutPoints(view: View, kind: SeriesKind, unit: Unit, b: Bounds, group: HistoryGroup | undefined): OutPoint[] {
  if (b.i === 0 && b.j === view.dates.length && !group) return view.points;
  const bars = (g: HistoryGroup) => {
    const raw = groupPoints(view.rawOf(b.i, b.j), g);
    return (g === 'year' ? yearOverYear(raw, view, unit) : raw).map((p) => roundPoint(p, kind, unit, true));
  };
  const cut = () => (group ? bars(group) : view.points.slice(b.i, b.j));
  if (!b.named) return cut();
  const key = `${view.key}|${b.i}|${b.j}|${group ?? ''}`;
  // A slice keeps its points alive as much as the view does: charged whole, so letting the view go never frees less than counted.
  const points = seriesCache().take(key, cut, (list) => pointsBytes(list) + 256);
  return keep(key, points, points);
}
