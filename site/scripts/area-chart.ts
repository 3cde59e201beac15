// The parts of lightweight-charts the landing page draws with: imported dynamically from landing.ts, so
// this module and the library become one chunk, loaded when the chart is about to be seen, and only
// what is used is bundled.
export { AreaSeries, createChart } from 'lightweight-charts';
