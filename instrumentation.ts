// Runs once when a server instance starts: the in-process sampler of a self-hosted server.
// (On Vercel, Vercel Cron calls /api/cron/sample instead; see vercel.json.)
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs' && !process.env.VERCEL) {
    const { startSampler } = await import('./lib/sampler');
    startSampler();
  }
}
