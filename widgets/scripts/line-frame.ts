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

/**
 * The SVG path of a line through the points in order, evenly spaced across the box as the chart
 * library spaces bars, the highest value at the top edge and the lowest at the bottom; '' for fewer
 * than two points (nothing to draw a line through).
 */
export function linePath(points: LinePoint[], w = FRAME_W, h = FRAME_H): string {
  if (points.length < 2) return '';
  const values = points.map((p) => p.value);
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo;
  const at = (n: number) => Math.round(n * 10) / 10;
  return points
    .map((p, i) => {
      const x = at((i / (points.length - 1)) * w);
      // A flat series sits mid-height.
      const y = at(span === 0 ? h / 2 : h - ((p.value - lo) / span) * h);
      return `${i === 0 ? 'M' : 'L'}${x} ${y}`;
    })
    .join('');
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
