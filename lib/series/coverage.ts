import { daysBefore } from '../calendar/dates';
import { isSessionDate } from '../calendar/market';
import type { MetalId } from '../reference/metals';
import { spotSeries, type HeldSeries } from './spot-series';

// Whether the daily spot bars cover a window (decisions §25): judged once, here, from the bars inside
// the window, and handed to every chart that draws one (the chart widget's ranges, the landing's
// chart), which draw the spot bars where they cover it and say futures otherwise. Bars imported for
// 2016–2019 and a week recorded since do not cover the last three months, though the first bar is older.

/** Sessions a window may miss at its start, at its end, or between two bars, and still be covered. */
export const MAX_MISSING_SESSIONS = 5;

/** A span of dates, YYYY-MM-DD, both ends included. */
export interface DateWindow {
  from: string;
  to: string;
}

const dayAfter = (date: string) => daysBefore(date, -1);

/** Session dates strictly after `a` and strictly before `b`, counting no further than the limit (the rule needs no more). */
function sessionsBetween(a: string, b: string, limit = MAX_MISSING_SESSIONS + 1): number {
  let n = 0;
  for (let d = dayAfter(a); d < b && n < limit; d = dayAfter(d)) if (isSessionDate(d)) n++;
  return n;
}

/**
 * Whether bars dated `dates` (oldest first) cover the window: at least one inside it, the first within
 * MAX_MISSING_SESSIONS sessions of its start, the last within as many of its end (a recorder stopped a month
 * ago leaves a hole too), and no more than that missing between any two.
 */
export function barsCover(dates: readonly string[], window: DateWindow): boolean {
  const inside = dates.filter((d) => d >= window.from && d <= window.to);
  if (inside.length === 0) return false;
  const edges = [daysBefore(window.from, 1), ...inside, dayAfter(window.to)];
  for (let i = 1; i < edges.length; i++) if (sessionsBetween(edges[i - 1], edges[i]) > MAX_MISSING_SESSIONS) return false;
  return true;
}

/**
 * For each window, whether the metal's daily spot bars cover it, from the series this instance holds. A
 * store that does not answer cannot say: no window is covered, and the charts draw futures, labelled so.
 */
export async function spotCovers(metal: MetalId, windows: readonly DateWindow[]): Promise<boolean[]> {
  let held: HeldSeries;
  try {
    held = await spotSeries(metal);
  } catch {
    return windows.map(() => false);
  }
  // A held series never changes (a change is a new one): its answer for a window is kept with it, so the charts and
  // pages that ask on every render do not scan the series again while it stands.
  let answers = judged.get(held);
  if (!answers) judged.set(held, (answers = new Map()));
  return windows.map((w) => {
    const key = `${w.from} ${w.to}`;
    let covered = answers.get(key);
    if (covered === undefined) {
      if (answers.size >= 1000) answers.clear();
      answers.set(key, (covered = barsCover(dates(held), w)));
    }
    return covered;
  });
}

/** Each held series' answers by window, and its bars' dates. */
const judged = new WeakMap<HeldSeries, Map<string, boolean>>();
const datesOf = new WeakMap<HeldSeries, string[]>();
function dates(held: HeldSeries): string[] {
  let d = datesOf.get(held);
  if (!d) datesOf.set(held, (d = held.bars.map((b) => b.d)));
  return d;
}
