import { daysBefore } from '../calendar/dates';
import type { Unit } from '../reference/units';
import { keep, pointsBytes, seriesCache } from './cache-budget';
import type { View } from './history-convert';
import { roundPoint, type OutPoint, type RawPoint, type SeriesKind } from './history-points';
import type { Bounds } from './history-window';

// Step 4 of a history answer (lib/series/history.ts), group: the window's points, grouped into weekly or monthly bars
// when asked. A named range is what many requests share: it is cut once per view, window and grouping, within the
// series budget. A window of arbitrary dates is cut for its request alone (repeats of one URL are the response cache's).

/** Monday of the ISO week of `date`. */
function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return daysBefore(date, (day + 6) % 7);
}

/**
 * Daily points grouped into bars per ISO week or calendar month: open the first point's (its close where the series
 * has no open), high the highest, low the lowest, close the last, `d` the first trading day, `days` how many there
 * were; a converted bar carries the rate of its close and that rate's date.
 */
export function groupPoints(points: readonly RawPoint[], by: 'week' | 'month'): RawPoint[] {
  const keyOf = by === 'week' ? isoWeek : (d: string) => d.slice(0, 7);
  const out: RawPoint[] = [];
  let key = '';
  let bar: RawPoint | null = null;
  for (const p of points) {
    const k = keyOf(p.d);
    const h = p.h ?? p.c;
    const l = p.l ?? p.c;
    if (!bar || k !== key) {
      key = k;
      bar = { d: p.d, o: p.o ?? p.c, c: p.c, h, l, days: 0 };
      out.push(bar);
    }
    bar.c = p.c;
    bar.h = Math.max(bar.h!, h);
    bar.l = Math.min(bar.l!, l);
    bar.days!++;
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
 * The points of the window `b` of `view`, grouped by `group` when given (never on the monthly series), rounded as
 * answered.
 */
export function cutPoints(view: View, kind: SeriesKind, unit: Unit, b: Bounds, group: 'week' | 'month' | undefined): OutPoint[] {
  if (b.i === 0 && b.j === view.dates.length && !group) return view.points;
  const cut = () => (group ? groupPoints(view.rawOf(b.i, b.j), group).map((p) => roundPoint(p, kind, unit, true)) : view.points.slice(b.i, b.j));
  if (!b.named) return cut();
  const key = `${view.key}|${b.i}|${b.j}|${group ?? ''}`;
  // A slice keeps its points alive as much as the view does: charged whole, so letting the view go never frees less than counted.
  const points = seriesCache().take(key, cut, (list) => pointsBytes(list) + 256);
  return keep(key, points, points);
}
