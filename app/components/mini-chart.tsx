'use client';
import { AreaSeries, createChart, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import useSWR from 'swr';
import type { History } from '@/lib/schemas/history';
import type { Intraday } from '@/lib/schemas/intraday';
import type { Unavailable } from '@/lib/unavailable';
import { apiFetcher } from './fetcher';

/** The points of a series answer; none when it is unavailable or not loaded yet. */
function pointsOf<P>(answer: { points: P[] } | Unavailable | undefined): P[] {
  return answer && 'points' in answer ? answer.points : [];
}

/** A small chart: the recorded intraday series when it holds a few hours, else the last 3 months of daily closes. */
export function MiniChart() {
  const box = useRef<HTMLDivElement>(null);
  const intraday = useSWR<Intraday | Unavailable>('/api/v1/intraday?hours=24', apiFetcher, { refreshInterval: 120_000 });
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
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: dark ? '#b3ab98' : '#5f584a', attributionLogo: true },
      grid: { vertLines: { visible: false }, horzLines: { color: dark ? '#393426' : '#eee7d6' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: useIntraday },
    });
    const series = chart.addSeries(AreaSeries, {
      lineColor: '#c99a1c',
      topColor: 'rgba(201,154,28,0.35)',
      bottomColor: 'rgba(201,154,28,0.02)',
      lineWidth: 2,
    });
    series.setData(points as never);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [useIntraday, intraday.data, history.data]);

  const label = useIntraday ? 'Recorded every 2 minutes, last 24 hours (USD/oz)' : 'Daily closes, last 3 months (COMEX futures, USD/oz)';
  return (
    <figure className="card" style={{ margin: 0 }}>
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
