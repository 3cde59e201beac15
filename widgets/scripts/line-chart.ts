// The parts of lightweight-charts the chart widget draws with: imported dynamically from chart.ts, so
// this module and the library become one chunk, loaded only when a reader reaches for the chart.
export { createChart, LineSeries } from 'lightweight-charts';
