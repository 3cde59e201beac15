import { z } from 'zod';
import { Status } from '../../schemas/status';
import { isUnavailable } from '../../sources/unavailable';
import { getStatus } from '../../status/report';
import { tool, toolOutput } from '../tool';

const pct = (r: number | null) => (r === null ? 'no attempts' : `${(r * 100).toFixed(2)}%`);

export const getDataStatus = tool({
  name: 'get_data_status',
  title: 'Data sources and record status',
  description:
    "How the service's data sources and its own record have behaved, as GET /api/v1/status gives it: per upstream (gold-api.com, " +
    'Swissquote, the FX table, historical FX, CoinGecko, the chart upstream, IMF/DBnomics, World Bank) its state (ok, degraded, down, ' +
    'unused), last success, last failure with its kind, availability over 24 hours and 7 days with the counts, and latency p50/p95; how ' +
    'far the two live spot sources’ USD prices stood apart over 24 hours (median and largest gap in basis points, cross-check failures); per metal ' +
    'the last 30 sessions of daily bars with missing sessions and the sampler’s last run; the store and the version. data_state is fresh when the record ' +
    'was read from the store, stale (its last reading) when the store does not answer now, unavailable when it never did. Use it before relying on a price to know whether a source is failing or the record has gaps.',
  input: z.object({}),
  output: toolOutput(Status),
  run: async () => {
    const status = await getStatus();
    if (isUnavailable(status)) return status;
    const up = status.upstreams.filter((u) => u.state !== 'unused');
    const trouble = up.filter((u) => u.state !== 'ok');
    const gold = status.agreement.find((a) => a.metal === 'gold');
    const missing = status.record.filter((r) => r.missing_sessions.length).map((r) => `${r.metal} ${r.missing_sessions.length}`);
    const summary =
      `Service ${status.version}, store ${status.store.kind} ${status.store.answers ? 'answering' : `not answering: the record as last read, at ${status.data_state.as_of}`}. ` +
      `${up.length} of ${status.upstreams.length} upstreams used in the last 7 days; ` +
      (trouble.length
        ? `not ok: ${trouble.map((u) => `${u.name} ${u.state} (24 h availability ${pct(u.availability.h24.ratio)}, last failure ${u.last_failure ? `${u.last_failure.kind}${u.last_failure.status ? ` ${u.last_failure.status}` : ''} at ${u.last_failure.at}` : 'none'})`).join('; ')}. `
        : 'all of them ok. ') +
      (gold && gold.pairs
        ? `Gold's two live sources over 24 h: median gap ${gold.median_bp} bp, largest ${gold.max_bp} bp, ${gold.cross_check_failures} cross-check failure(s) in ${gold.pairs} pairs. `
        : 'No pair of fresh gold prices from both live sources in the last 24 h. ') +
      (missing.length ? `Sessions with no daily bar among the last 30: ${missing.join(', ')}.` : 'No missing session in the last 30 daily bars.');
    return { body: status, summary };
  },
});
