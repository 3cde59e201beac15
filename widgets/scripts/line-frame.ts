import { setText } from './shared';

// The chart widget's first frame: its real points as one SVG line, with the high, the low and the
// span's first and last times beside it. Drawn by the widget's small script, so a reader sees the
// series without the chart library's start-up; the library replaces it once a pointer or focus comes
// to the widget (its crosshair is the one thing the frame lacks).

export interface LinePoint {
  /** Unix seconds. */
  time: number;
  value: number;
}

/** The drawing's coordinate box; the SVG stretches it to the plot's size. */
export const FRAME_W = 1000;
export const FRAME_H = 100;

/** A step between two points longer than this many times the series' usual step is a hole, drawn as one. */
export const HOLE_STEPS = 5;

/** The series' usual step between points, seconds: the median, so a few holes do not stretch it. */
export function usualStep(points: readonly LinePoint[]): number {
  const steps = points
    .slice(1)
    .map((p, i) => p.time - points[i].time)
    .sort((a, b) => a - b);
  return steps.length ? steps[Math.floor(steps.length / 2)] : 0;
}

/** Whether the step from `a` to `b` is a hole in a series whose usual step is `usual`. */
const isHole = (a: LinePoint, b: LinePoint, usual: number) => usual > 0 && b.time - a.time > HOLE_STEPS * usual;

/**
 * The SVG path of a line through the points in order, each placed by its time across the box (so a span
 * without points takes its width), the highest value at the top edge and the lowest at the bottom; the line
 * is broken over a hole (a step of more than HOLE_STEPS usual steps), never drawn straight across it; ''
 * for fewer than two points (nothing to draw a line through).
 */
export function linePath(points: LinePoint[], w = FRAME_W, h = FRAME_H): string {
  if (points.length < 2) return '';
  const values = points.map((p) => p.value);
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo;
  const t0 = points[0].time;
  const duration = points[points.length - 1].time - t0;
  const usual = usualStep(points);
  const at = (n: number) => Math.round(n * 10) / 10;
  return points
    .map((p, i) => {
      const x = at(duration === 0 ? 0 : ((p.time - t0) / duration) * w);
      // A flat series sits mid-height.
      const y = at(span === 0 ? h / 2 : h - ((p.value - lo) / span) * h);
      return `${i === 0 || isHole(points[i - 1], p, usual) ? 'M' : 'L'}${x} ${y}`;
    })
    .join('');
}

/** The point nearest in time to a fraction (0 left, 1 right) of the frame's width, as linePath places them. */
export function pointAt(points: readonly LinePoint[], fraction: number): LinePoint | undefined {
  if (points.length === 0) return undefined;
  const t = points[0].time + Math.min(1, Math.max(0, fraction)) * (points[points.length - 1].time - points[0].time);
  return points.reduce((best, p) => (Math.abs(p.time - t) < Math.abs(best.time - t) ? p : best));
}

/** Most empty slots the chart library is given over all holes (a weekend of 2-minute samples is 1,440). */
const MAX_FILL = 5000;

/**
 * The points as the chart library takes them, with empty slots (whitespace: a time, no value) across each
 * hole at the usual step: the library spaces points by index, so a hole without them would be one straight
 * segment; with them it is a gap as wide as the time it spans.
 */
export function libraryData(points: readonly LinePoint[]): ({ time: number; value: number } | { time: number })[] {
  const usual = usualStep(points);
  const out: ({ time: number; value: number } | { time: number })[] = [];
  let budget = MAX_FILL;
  points.forEach((p, i) => {
    if (i > 0 && isHole(points[i - 1], p, usual)) {
      const slots = Math.min(budget, Math.floor((p.time - points[i - 1].time) / usual) - 1);
      for (let k = 1; k <= slots; k++) out.push({ time: points[i - 1].time + Math.round(((p.time - points[i - 1].time) * k) / (slots + 1)) });
      budget -= Math.max(0, slots);
      // Even with no slot left to spread, one empty slot still breaks the line.
      if (slots <= 0) out.push({ time: points[i - 1].time + 1 });
    }
    out.push({ time: p.time, value: p.value });
  });
  return out;
}

const SVG = 'http://www.w3.org/2000/svg';
/** The labels beside the line, widget fields (`data-f`) like the others: the high, the low, the first and last times. */
const LABELS = ['hi', 'lo', 't0', 't1'];

/** Draws (or redraws) the frame in `box`: the line, and the labels in the page's formats. */
export function drawFrame(
  box: HTMLElement,
  points: LinePoint[],
  color: string,
  fmtValue: (v: number) => string,
  fmtTime: (t: number) => string,
): void {
  let svg = box.querySelector('svg');
  if (!svg) {
    svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'frame');
    svg.setAttribute('viewBox', `0 0 ${FRAME_W} ${FRAME_H}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('aria-hidden', 'true');
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke-width', '2');
    path.setAttribute('stroke-linejoin', 'round');
    // Two pixels wide however far the box stretches the drawing.
    path.setAttribute('vector-effect', 'non-scaling-stroke');
    svg.append(path);
    box.append(
      svg,
      ...LABELS.map((name) => {
        const span = document.createElement('span');
        span.dataset.f = name;
        return span;
      }),
    );
  }
  const path = svg.querySelector('path')!;
  path.setAttribute('d', linePath(points));
  path.setAttribute('stroke', color);
  const values = points.map((p) => p.value);
  const drawn = points.length >= 2;
  setText('hi', drawn ? fmtValue(Math.max(...values)) : '');
  setText('lo', drawn ? fmtValue(Math.min(...values)) : '');
  setText('t0', drawn ? fmtTime(points[0].time) : '');
  setText('t1', drawn ? fmtTime(points[points.length - 1].time) : '');
}
