// Market hours of spot gold and silver, in New York time (daylight saving observed): open from
// Sunday 18:00 to Friday 17:00, with a daily break 17:00–18:00 Monday to Thursday. On 25 December,
// 1 January and Good Friday the market is closed from 17:00 the day before until 18:00 on the day.
// Pure: the answer depends only on the instant asked about.

export type MarketReason = 'holiday' | 'weekend' | 'daily_break';

export interface MarketState {
  status: 'open' | 'closed';
  /** Why it is closed (holiday before weekend before daily break), null when open. */
  reason: MarketReason | null;
  /** ISO 8601 UTC, to the minute: the next close when open, the next open when closed. */
  next_change: string;
}

const ZONE = 'America/New_York';
const CLOSE_MIN = 17 * 60;
const OPEN_MIN = 18 * 60;
const DAY_MS = 86_400_000;

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
});

/** A New York calendar day as the UTC midnight of the same date (for date arithmetic only). */
type Day = number;

function newYorkTime(ms: number): { day: Day; minute: number } {
  const p: Record<string, number> = {};
  for (const { type, value } of parts.formatToParts(ms)) p[type] = Number(value);
  return { day: Date.UTC(p.year, p.month - 1, p.day), minute: p.hour * 60 + p.minute };
}

/** Gregorian Easter Sunday (anonymous Gregorian algorithm). */
export function easterSunday(year: number): Day {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, date);
}

function isHoliday(day: Day): boolean {
  const d = new Date(day);
  const [m, date] = [d.getUTCMonth() + 1, d.getUTCDate()];
  return (m === 12 && date === 25) || (m === 1 && date === 1) || day === easterSunday(d.getUTCFullYear()) - 2 * DAY_MS;
}

/** Whether a trading session closes on this New York date (YYYY-MM-DD): a weekday that is not a holiday. */
export function isSessionDate(date: string): boolean {
  const day = Date.parse(`${date}T00:00:00Z`);
  const weekday = new Date(day).getUTCDay();
  return weekday >= 1 && weekday <= 5 && !isHoliday(day);
}

/** Why the market is closed at this New York day and minute, or null when it is open. */
function closedBecause(day: Day, minute: number): MarketReason | null {
  if ((isHoliday(day) && minute < OPEN_MIN) || (isHoliday(day + DAY_MS) && minute >= CLOSE_MIN)) return 'holiday';
  const weekday = new Date(day).getUTCDay(); // 0 Sunday … 6 Saturday
  if ((weekday === 5 && minute >= CLOSE_MIN) || weekday === 6 || (weekday === 0 && minute < OPEN_MIN)) return 'weekend';
  if (weekday >= 1 && weekday <= 4 && minute >= CLOSE_MIN && minute < OPEN_MIN) return 'daily_break';
  return null;
}

/** The UTC instant of a New York day and minute. The rules change state only at 17:00 and 18:00, far from
 *  the 02:00 daylight-saving switch, so the offset at a first guess is the offset at the answer. */
function utcOf(day: Day, minute: number): number {
  const guess = day + minute * 60_000 + 5 * 3_600_000;
  const seen = newYorkTime(guess);
  return guess - (seen.day + seen.minute * 60_000 - (day + minute * 60_000));
}

export function marketState(nowMs: number): MarketState {
  const { day, minute } = newYorkTime(nowMs);
  const reason = closedBecause(day, minute);
  const closed = reason !== null;
  // State changes only at 17:00 or 18:00 New York time: walk those instants until one differs.
  // The longest closure (a holiday next to a weekend) or opening spans a few days.
  for (let d = day; d < day + 14 * DAY_MS; d += DAY_MS) {
    for (const m of [CLOSE_MIN, OPEN_MIN]) {
      if (d === day && m <= minute) continue;
      if ((closedBecause(d, m) !== null) !== closed) {
        return { status: closed ? 'closed' : 'open', reason, next_change: new Date(utcOf(d, m)).toISOString() };
      }
    }
  }
  throw new Error('market calendar: no change within 14 days');
}

/** Seconds the market was open between two instants (ms): what a recorder could have sampled. */
export function openSecondsBetween(fromMs: number, toMs: number): number {
  let open = 0;
  for (let t = fromMs; t < toMs;) {
    const s = marketState(t);
    const end = Math.min(Date.parse(s.next_change), toMs);
    if (s.status === 'open') open += end - t;
    t = end;
  }
  return open / 1000;
}

/** A trading session (decisions §15): from one open to the next close at 17:00 New York time. */
export interface Session {
  /** The New York date on which the session closes, YYYY-MM-DD (Sunday 18:00 to Monday 17:00 is Monday's). */
  date: string;
  /** Whether the market is open at the instant asked about; when closed, `date` is the last session that closed. */
  open: boolean;
}

const isoDay = (day: Day) => new Date(day).toISOString().slice(0, 10);

/** The session an instant belongs to: the one trading now, or while closed the last one that closed. */
export function sessionAt(nowMs: number): Session {
  const state = marketState(nowMs);
  if (state.status === 'open') return { date: isoDay(newYorkTime(Date.parse(state.next_change)).day), open: true };
  // Closed: every close happens at 17:00, so the last close is the latest 17:00 (today's only if it has passed)
  // with the market open the minute before and closed at it. A closure spans a few days at most.
  const { day, minute } = newYorkTime(nowMs);
  for (let d = minute >= CLOSE_MIN ? day : day - DAY_MS; d > day - 14 * DAY_MS; d -= DAY_MS) {
    if (closedBecause(d, CLOSE_MIN - 1) === null && closedBecause(d, CLOSE_MIN) !== null) return { date: isoDay(d), open: false };
  }
  throw new Error('market calendar: no close within 14 days');
}

/** The `count` latest session dates up to and including `last` (YYYY-MM-DD), oldest first: the days on which a session closed. */
export function sessionDates(last: string, count: number): string[] {
  const out: string[] = [];
  // A session closes on a day when the market is open the minute before 17:00 and closed at it.
  for (let d = Date.parse(`${last}T00:00:00Z`); out.length < count; d -= DAY_MS) {
    if (closedBecause(d, CLOSE_MIN - 1) === null && closedBecause(d, CLOSE_MIN) !== null) out.push(isoDay(d));
  }
  return out.reverse();
}
