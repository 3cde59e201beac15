import { describe, expect, it } from 'vitest';
import { FRAME_H, FRAME_W, libraryData, linePath, pointAt } from '@/widgets/scripts/line-frame';
import { fixtureText } from '../../support/fake-upstream';

// The chart widget's first frame: a line through the points in order, each placed by its time, scaled to fill the
// box; a hole in the series is drawn as a gap, in the frame and in the library's data alike.

/** The path's vertices, in order. */
const vertices = (d: string) => [...d.matchAll(/([ML])([\d.]+) ([\d.]+)/g)].map((m) => ({ cmd: m[1], x: Number(m[2]), y: Number(m[3]) }));

describe('linePath', () => {
  const points = [5, 9, 2, 7, 4].map((value, i) => ({ time: 1_700_000_000 + i * 86_400, value }));

  it('visits every point in order, evenly across, highest at the top and lowest at the bottom', () => {
    const v = vertices(linePath(points));
    expect(v.map((p) => p.cmd).join('')).toBe('MLLLL');
    expect(v.map((p) => p.x)).toEqual([0, 250, 500, 750, 1000]);
    expect(v[1].y).toBe(0); // 9, the high
    expect(v[2].y).toBe(FRAME_H); // 2, the low
    // Each point's height in proportion to its value between the low and the high.
    v.forEach((p, i) => expect(p.y).toBeCloseTo(FRAME_H - ((points[i].value - 2) / 7) * FRAME_H, 1));
  });

  it('fills the box it is given', () => {
    const v = vertices(linePath(points, 600, 200));
    expect(Math.max(...v.map((p) => p.x))).toBe(600);
    expect(Math.max(...v.map((p) => p.y))).toBe(200);
  });

  it('draws a flat series across the middle', () => {
    const flat = points.map((p) => ({ ...p, value: 4000 }));
    expect(new Set(vertices(linePath(flat)).map((p) => p.y))).toEqual(new Set([FRAME_H / 2]));
  });

  it('draws nothing through fewer than two points', () => {
    expect(linePath([])).toBe('');
    expect(linePath(points.slice(0, 1))).toBe('');
  });
});

describe('points spaced by time, a hole drawn as a hole', () => {
  /** Real daily closes (tests/fixtures, the broker's gold file) from January to March 2026, two weeks of February cut out as a recorder would leave them. */
  const rows = fixtureText('gold-daily-ohlc-usd.csv')
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(','))
    .filter(([d]) => d >= '2026-01-02' && d <= '2026-03-31');
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
  const holed = rows.filter(([d]) => d < '2026-02-02' || d > '2026-02-13').map(([d, , , , c]) => ({ time: day(d), value: Number(c) }));
  const before = holed.findIndex((p) => p.time > day('2026-02-13')) - 1;

  it('the frame breaks the line over the hole: it starts again after it, and the hole is as wide as the time it spans', () => {
    const v = vertices(linePath(holed));
    expect(v).toHaveLength(holed.length);
    // One break, at the first point after the hole; every other point continues the line.
    expect(v.map((p, i) => (p.cmd === 'M' ? i : -1)).filter((i) => i >= 0)).toEqual([0, before + 1]);
    const span = holed[holed.length - 1].time - holed[0].time;
    v.forEach((p, i) => expect(p.x).toBeCloseTo(((holed[i].time - holed[0].time) / span) * FRAME_W, 0));
    // The gap takes the width of its sixteen days, not one step's.
    expect(v[before + 1].x - v[before].x).toBeGreaterThan(((15 * 86_400) / span) * FRAME_W);
  });

  it('weekends are not holes: every session of the quarter is one unbroken line', () => {
    const all = rows.map(([d, , , , c]) => ({ time: day(d), value: Number(c) }));
    expect(linePath(all).match(/M/g)).toHaveLength(1);
    expect(libraryData(all)).toEqual(all);
  });

  it('the library gets empty slots across the hole at the usual step, so it draws no line across it', () => {
    const data = libraryData(holed);
    const empty = data.filter((p) => !('value' in p));
    expect(data.filter((p) => 'value' in p)).toEqual(holed);
    expect(empty.length).toBeGreaterThanOrEqual(14);
    for (const p of empty) {
      expect(p.time).toBeGreaterThan(holed[before].time);
      expect(p.time).toBeLessThan(holed[before + 1].time);
    }
    const times = data.map((p) => p.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
  });

  it('the value under the pointer is the point nearest in time to it', () => {
    expect(pointAt(holed, 0)).toBe(holed[0]);
    expect(pointAt(holed, 1)).toBe(holed[holed.length - 1]);
    const x = (holed[before + 1].time - holed[0].time - 86_400) / (holed[holed.length - 1].time - holed[0].time);
    expect(pointAt(holed, x)).toBe(holed[before + 1]);
  });
});
