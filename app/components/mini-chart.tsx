'use client';
import type { IChartApi, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import useSWR from 'swr';
import type { History } from '@/lib/schemas/history';
import type { Intraday } from '@/lib/schemas/intraday';
import type { Unavailable } from '@/lib/unavailable';
import { apiFetcher } from './fetcher';

/** The points of a series answer; none when it is unavailable or not loaded yet. */
function pointsOf<P>(answer: { points: P[] } | Unavailable | undefined): P[] {
  return answer && 'points' in answer ? answer.points : [];
}

/** True once `el` is within 300 px of the viewport. */
function useNearViewport(el: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const target = el.current;
    if (!target || near) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '300px' });
    io.observe(target);
    return () => io.disconnect();
  }, [el, near]);
  return near;
}

/**
 * A small chart: the recorded intraday series when it holds a few hours, else the last 3 months of daily closes.
 * Its data and the chart library (lightweight-charts, the page's largest script) load only when the panel is about
 * to be seen, so the price and the text paint without waiting for them.
 */
export function MiniChart() {
  const figure = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(figure);
  const intraday = useSWR<Intraday | Unavailable>(near ? '/api/v1/intraday?hours=24' : null, apiFetcher, { refreshInterval: 120_000 });
  const useIntraday = pointsOf(intraday.data).length >= 30;
  const intradaySettled = intraday.data !== undefined || intraday.error !== undefined;
  const history = useSWR<History | Unavailable>(intradaySettled && !useIntraday ? '/api/v1/history' : null, apiFetcher);
  // Say why the panel is empty rather than leave it blank.
  const historyProblem = useIntraday
    ? null
    : history.error
      ? String(history.error.message)
      : history.data && 'error' in history.data
        ? history.data.error
        : null;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const points = useIntraday
      ? pointsOf(intraday.data).map((x) => ({ time: x.t as UTCTimestamp, value: x.p }))
      : pointsOf(history.data)
          .slice(-66)
          .map((x) => ({ time: x.d, value: x.c }));
    if (points.length < 2) return;
    const drawn: { chart?: IChartApi; gone?: boolean } = {};
    void import('lightweight-charts').then(({ AreaSeries, createChart }) => {
      if (drawn.gone) return;
      const dark = matchMedia('(prefers-color-scheme: dark)').matches;
      const c = createChart(el, {
        autoSize: true,
        layout: { background: { color: 'transparent' }, textColor: dark ? '#b3ab98' : '#5f584a', attributionLogo: true },
        grid: { vertLines: { visible: false }, horzLines: { color: dark ? '#393426' : '#eee7d6' } },
        rightPriceScale: { borderVisible: false },
        timeScale: { borderVisible: false, timeVisible: useIntraday },
      });
      // The line keeps 3:1 against the page (WCAG non-text contrast) in both themes.
      const line = dark ? '#c99a1c' : '#a87b00';
      const series = c.addSeries(AreaSeries, { lineColor: line, topColor: `${line}59`, bottomColor: `${line}05`, lineWidth: 2 });
      series.setData(points as never);
      c.timeScale().fitContent();
      drawn.chart = c;
    });
    return () => {
      drawn.gone = true;
      drawn.chart?.remove();
    };
  }, [useIntraday, intraday.data, history.data]);

  const label = useIntraday ? 'Recorded every 2 minutes, last 24 hours (USD/oz)' : 'Daily closes, last 3 months (COMEX futures, USD/oz)';
  return (
    <figure ref={figure} className="card" style={{ margin: 0 }}>
      <figcaption className="muted">{label}</figcaption>
      {historyProblem === null ? (
        <div ref={box} className="chart" />
      ) : (
        <div role="status" className="chart">
          <strong>History unavailable</strong>
          <p className="muted">{historyProblem}</p>
        </div>
      )}
    </figure>
  );
}
