// The price pages' chart script: tiny, so the page's first script stays small. The chart itself
// (site/scripts/price-chart-view.ts) is a chunk loaded when it is wanted: when the chart section comes within a
// screen or so of the viewport (so it is drawn by the time it is seen). It draws its first frame without the chart
// library, whose start-up would compete with the price; the library is a further chunk, loaded when a reader reaches
// for the chart. The page holds the section's height meanwhile, so nothing moves when either comes.
//
// A page includes this script (an ES module) and a `<section id="chart" data-metal data-currency data-unit
// data-lang data-range data-plan>`; each such section (or any element with `data-price-chart`) is mounted.

/** The built chart's file beside this one (scripts/build-widgets.mjs names it, content-hashed). */
declare const PRICE_CHART_VIEW: string;

/** Loads the chart and mounts it into `section` at once (a page may call it itself, at idle for instance). */
export async function mountPriceChart(section: HTMLElement): Promise<void> {
  const view = (await import(PRICE_CHART_VIEW)) as typeof import('./price-chart-view');
  view.mountPriceChart(section);
}

/** Mounts the chart into `section` when it comes near the viewport; at once in a browser that cannot tell. */
export function mountWhenWanted(section: HTMLElement): void {
  const go = () =>
    // Offline or blocked: the section keeps its placeholder.
    mountPriceChart(section).catch(() => undefined);
  if (typeof IntersectionObserver !== 'function') return void go();
  const near = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      void go();
    },
    { rootMargin: '600px 0px' },
  );
  near.observe(section);
}

document.querySelectorAll<HTMLElement>('section#chart[data-metal], [data-price-chart]').forEach(mountWhenWanted);
