// The price pages' chart script: tiny, so the page's first script stays small. The chart itself
// (site/scripts/price-chart-view.ts, with the chart library) is a chunk loaded when it is wanted: when
// the chart section comes near the viewport, or when the browser is idle after the page has loaded,
// whichever is first. The page holds the section's height meanwhile, so nothing moves when it comes.
//
// A page includes this script (an ES module) and a `<section id="chart" data-metal data-currency data-unit
// data-lang data-range data-plan>`; each such section (or any element with `data-price-chart`) is mounted.

/** Loads the chart and mounts it into `section` at once. */
export async function mountPriceChart(section: HTMLElement): Promise<void> {
  const view = await import('./price-chart-view');
  view.mountPriceChart(section);
}

/** Mounts the chart into `section` when it is wanted: near the viewport, or at idle after the page's load. */
export function mountWhenWanted(section: HTMLElement): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    near?.disconnect();
    // Offline or blocked: the section keeps its placeholder.
    mountPriceChart(section).catch(() => undefined);
  };
  const near =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && go(), { rootMargin: '200px' })
      : null;
  if (near) near.observe(section);
  else go();
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(go, { timeout: 5000 }) : setTimeout(go, 3000));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

document.querySelectorAll<HTMLElement>('section#chart[data-metal], [data-price-chart]').forEach(mountWhenWanted);
