// Runs once when a server instance starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { config } = await import('./lib/core/config');
  // Open the store now, so an unusable DATA_DIR is named in the start-up log, not at the first request.
  const { getStore } = await import('./lib/store');
  getStore();
  if (config.warmFeeds()) {
    // Fetch every live feed now, not on the first request: a burst on a fresh instance then waits on
    // these single calls (or finds them done) instead of starting them under load.
    const { feeds } = await import('./lib/sources/feeds');
    for (const feed of Object.values(feeds)) void feed.read();
  }
  // The price alerts hear every served price from now on, and the deliveries left queued resume.
  const { startAlerts } = await import('./lib/alerts/evaluate');
  startAlerts();
  // The in-process sampler of a self-hosted server (on Vercel, Vercel Cron calls /api/cron/sample; see vercel.json).
  // Its code (prices, sources, the series) loads only where it runs.
  if (!process.env.VERCEL && config.samplerEnabled()) {
    const { startSampler } = await import('./lib/series/sampler');
    startSampler();
  }
}
