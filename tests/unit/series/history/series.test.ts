import { describe, expect, it } from 'vitest';
import { toDaily } from '@/lib/series/history-series';
import { rows } from './fixture';

// Step 1, which series: the futures bars as fetched become one point per New York trading date.

/** A time on `date` at `hour`:`minute` New York (EDT or EST, whichever that day has), seconds. */
function nyTime(date: string, hour: number, minute = 0): number {
  for (const offset of [4, 5]) {
    const t = Date.parse(`${date}T00:00:00Z`) / 1000 + (hour + offset) * 3600 + minute * 60;
    const h = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(t * 1000));
    if (h === hour) return t;
  }
  throw new Error(date);
}

describe('history step 1: which series', () => {
  it('one point per New York trading date, oldest first; a session’s later bar on the same date wins', () => {
    const days = rows.slice(-30);
    const bars = days.map((r) => ({ t: nyTime(r.d, 0, 0), o: r.o, h: r.h, l: r.l, c: r.c, v: 0 }));
    // The last session's bar again, stamped with its latest trade (16:59 New York), at a different close: it replaces it.
    const last = days[days.length - 1];
    bars.push({ t: nyTime(last.d, 16, 59), o: last.o, h: last.h + 1, l: last.l, c: last.c + 1, v: 0 });
    const out = toDaily(bars);
    expect(out.map((p) => p.d)).toEqual(days.map((r) => r.d));
    expect(out[0]).toEqual({ d: days[0].d, o: days[0].o, c: days[0].c, h: days[0].h, l: days[0].l });
    expect(out[out.length - 1]).toEqual({ d: last.d, o: last.o, c: last.c + 1, h: last.h + 1, l: last.l });
  });

  it('a bar late in the evening UTC belongs to its New York date', () => {
    const r = rows[rows.length - 1];
    // 23:30 New York is the next day in UTC.
    const [p] = toDaily([{ t: nyTime(r.d, 23, 30), o: r.o, h: r.h, l: r.l, c: r.c, v: 0 }]);
    expect(p.d).toBe(r.d);
  });
});
