import { createChart, LineSeries, PriceScaleMode, type UTCTimestamp } from 'lightweight-charts';

// The interactive line both charts draw with, the chart widget's (widgets/scripts/chart.ts) and the price
// pages' (site/scripts/price-chart-view.ts): lightweight-charts with one line, a crosshair whose point is
// handed to the page to write out, the time axis in the page's locale, and a logarithmic price scale on
// demand. Each script imports it dynamically, so this module and the library become one chunk, loaded only
// when a reader reaches for the chart. It imports nothing of the scripts' own (that would be a second chunk
// loaded at their start): the points come already laid out by line-frame.ts's libraryData.

export interface LineChartOptions {
  /** Month and day names on the time axis in the page's locale, not the browser's. */
  locale: string;
  color: string;
  textColor: string;
  gridColor: string;
  /** The point under the crosshair (unix seconds and its value), or null when there is none. */
  onCross(point: { time: number; value: number } | null): void;
}

export interface LineChart {
  /**
   * Draws the points (with empty slots across each hole, so a hole is a gap), fitted to the width; the price scale
   * writes values as `price.format` does (the page's locale, the series' decimals), in steps of `price.minMove`.
   */
  draw(
    points: readonly ({ time: number; value: number } | { time: number })[],
    timeVisible: boolean,
    price?: { format(value: number): string; minMove: number },
  ): void;
  /** A logarithmic price scale (equal distances for equal ratios), or the linear one; answers whether the scale is now logarithmic. */
  logScale(on: boolean): boolean;
}

export function startLineChart(box: HTMLElement, o: LineChartOptions): LineChart {
  const chart = createChart(box, {
    autoSize: true,
    localization: { locale: o.locale },
    layout: { background: { color: 'transparent' }, textColor: o.textColor, fontSize: 11, attributionLogo: true },
    grid: { vertLines: { visible: false }, horzLines: { color: o.gridColor } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false, timeVisible: true },
    crosshair: { horzLine: { labelVisible: true } },
  });
  const series = chart.addSeries(LineSeries, { color: o.color, lineWidth: 2, priceLineVisible: false });
  chart.subscribeCrosshairMove((p) => {
    const point = p.seriesData.get(series) as { value?: number } | undefined;
    o.onCross(p.time === undefined || point?.value === undefined ? null : { time: p.time as number, value: point.value });
  });
  return {
    draw(points, timeVisible, price) {
      if (price) series.applyOptions({ priceFormat: { type: 'custom', formatter: price.format, minMove: price.minMove } });
      series.setData(points as { time: UTCTimestamp; value: number }[]);
      chart.applyOptions({ timeScale: { timeVisible } });
      chart.timeScale().fitContent();
    },
    logScale(on) {
      const scale = chart.priceScale('right');
      scale.applyOptions({ mode: on ? PriceScaleMode.Logarithmic : PriceScaleMode.Normal });
      return scale.options().mode === PriceScaleMode.Logarithmic;
    },
  };
}
