import { describe, expect, it } from 'vitest';
import { FRAME_H, linePath } from '@/widgets/scripts/line-frame';

// The chart widget's first frame: a line through the points in order, scaled to fill the box.

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
