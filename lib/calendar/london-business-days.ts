import { easterSunday } from './market';

// London's business days and wall-clock time (decisions §30). A business day is a weekday that is not an
// England and Wales bank holiday: New Year's Day, Good Friday, Easter Monday, the early May bank holiday
// (first Monday of May), the spring bank holiday (last Monday of May), the summer bank holiday (last Monday
// of August), Christmas Day and Boxing Day; one falling on a weekend gives the next weekday that is not
// already a holiday as its substitute. Holidays proclaimed once (a royal event, a moved May holiday) are
// the short list below. Europe/London's daylight saving comes from Intl. Pure: the answer depends only on
// the date or instant asked about.

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const weekday = (ms: number) => new Date(ms).getUTCDay();
const isWeekend = (ms: number) => weekday(ms) === 0 || weekday(ms) === 6;

/** A Monday of `month` (1–12): the first, or the last. */
function monday(year: number, month: number, which: 'first' | 'last'): number {
  if (which === 'first') {
    const first = Date.UTC(year, month - 1, 1);
    return first + ((8 - weekday(first)) % 7) * DAY_MS;
  }
  const last = Date.UTC(year, month, 0);
  return last - ((weekday(last) + 6) % 7) * DAY_MS;
}

/**
 * One-off changes by proclamation: a regular holiday moved (`moved`: its usual date → the date it was held)
 * and extra holidays. Since 2011, the retention of the London values and more.
 */
const MOVED: Record<string, string> = {
  // The spring bank holiday moved for the Diamond and Platinum Jubilees; the early May one for VE Day's 75th.
  '2012-05-28': '2012-06-04',
  '2020-05-04': '2020-05-08',
  '2022-05-30': '2022-06-02',
};
const EXTRA = [
  '2011-04-29', // royal wedding
  '2012-06-05', // Diamond Jubilee
  '2022-06-03', // Platinum Jubilee
  '2022-09-19', // state funeral of Queen Elizabeth II
  '2023-05-08', // coronation of King Charles III
];

const byYear = new Map<number, Set<string>>();

/** The England and Wales bank holidays of `year`, as YYYY-MM-DD (substitute days included). */
export function bankHolidays(year: number): Set<string> {
  let held = byYear.get(year);
  if (held) return held;
  const days: number[] = [];
  // Fixed dates, each on its weekday or on the next free weekday after it, in order (Christmas before Boxing Day).
  const fixed = (month: number, day: number) => {
    let t = Date.UTC(year, month - 1, day);
    while (isWeekend(t) || days.includes(t)) t += DAY_MS;
    days.push(t);
  };
  fixed(1, 1);
  const easter = easterSunday(year);
  days.push(easter - 2 * DAY_MS, easter + DAY_MS);
  days.push(monday(year, 5, 'first'), monday(year, 5, 'last'), monday(year, 8, 'last'));
  fixed(12, 25);
  fixed(12, 26);
  held = new Set(days.map(dateOf).map((d) => MOVED[d] ?? d));
  for (const d of EXTRA) if (d.startsWith(`${year}-`)) held.add(d);
  byYear.set(year, held);
  return held;
}

/** Whether `date` (YYYY-MM-DD) is a London business day: a weekday and no England and Wales bank holiday. */
export function isLondonBusinessDay(date: string): boolean {
  const t = Date.parse(`${date}T00:00:00Z`);
  return !isWeekend(t) && !bankHolidays(Number(date.slice(0, 4))).has(date);
}

const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** The London date (YYYY-MM-DD) and minute of the day (0–1439) of an instant (ms), daylight saving observed. */
export function londonClock(ms: number): { date: string; minute: number } {
  const p: Record<string, string> = {};
  for (const { type, value } of parts.formatToParts(ms)) p[type] = value;
  return { date: `${p.year}-${p.month}-${p.day}`, minute: Number(p.hour) * 60 + Number(p.minute) };
}

/** `HH:MM` as the minute of the day. */
export const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
