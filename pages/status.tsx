import type { PageConfig } from 'next';
import type { Status, UpstreamStatus } from '@/lib/schemas/status';
import { isUnavailable, type Unavailable } from '@/lib/sources/unavailable';
import { getStatus } from '@/lib/status/report';
import { PageHead } from '@/site/layout';

// The status record at a glance (decisions §26): the same figures as GET /api/v1/status (the price alerts' counts too,
// §28), server-rendered with no framework script. Every state is a word, never a colour alone; the availability bars
// carry their figure as text.

export const config: PageConfig = { unstable_runtimeJS: false };

export async function getServerSideProps() {
  return { props: { status: await getStatus() } };
}

const pct = (r: number | null) => (r === null ? 'no attempts' : `${(r * 100).toFixed(r === 1 ? 0 : 2)}%`);
const when = (iso: string | null) => (iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);

function Bar({ share, label }: { share: UpstreamStatus['availability']['d7']; label: string }) {
  const width = share.ratio === null ? 0 : Math.round(share.ratio * 1000) / 10;
  return (
    <span className="avail">
      <span className="avail-bar" aria-hidden="true">
        <span style={{ width: `${width}%` }} />
      </span>
      <span>
        {pct(share.ratio)}
        <span className="muted">
          {' '}
          ({share.successes}/{share.attempts} {label})
        </span>
      </span>
    </span>
  );
}

export default function StatusPage({ status }: { status: Status | Unavailable }) {
  if (isUnavailable(status)) {
    return (
      <>
        <PageHead title="Status" description="How the data sources and the service's own record have behaved." />
        <h1>Status</h1>
        <p className="card">
          <strong>Unavailable.</strong> {status.error}. The service still answers from its sources; the record of how they behaved cannot be shown
          until the store answers again (checked at {when(status.updated_at)}).
        </p>
      </>
    );
  }
  return (
    <>
      <PageHead title="Status" description="How each data source and the service's own record have behaved this week." />
      <h1>Status</h1>
      <p className="lead">
        How each source and the service&apos;s own record have behaved, from every request this service made in the last 7 days. Version{' '}
        {status.version}; store <code>{status.store.kind}</code>{' '}
        {status.store.answers ? 'answering' : <strong>not answering: the record as last read, at {when(status.data_state.as_of)}</strong>}; as of{' '}
        {when(status.updated_at)}. The same figures as JSON: <a href="/api/v1/status">/api/v1/status</a>.
      </p>
      <h2 id="sources">Sources</h2>
      <div className="table-scroll" role="region" aria-label="Sources" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">source</th>
              <th scope="col">state</th>
              <th scope="col">availability 24 h</th>
              <th scope="col">availability 7 days</th>
              <th scope="col">latency p50 / p95</th>
              <th scope="col">last success</th>
              <th scope="col">last failure</th>
            </tr>
          </thead>
          <tbody>
            {status.upstreams.map((u) => (
              <tr key={u.id}>
                <th scope="row">
                  {u.name}
                  <br />
                  <span className="muted">{u.role}</span>
                </th>
                <td>
                  <span className={`state state-${u.state}`}>{u.state}</span>
                </td>
                <td>
                  <Bar share={u.availability.h24} label="in 24 h" />
                </td>
                <td>
                  <Bar share={u.availability.d7} label="in 7 days" />
                </td>
                <td>{u.latency_ms.p50 === null ? '—' : `≤ ${u.latency_ms.p50} ms / ≤ ${u.latency_ms.p95} ms`}</td>
                <td>{when(u.last_success)}</td>
                <td>
                  {u.last_failure
                    ? `${when(u.last_failure.at)}: ${u.last_failure.kind}${u.last_failure.status === null ? '' : ` (HTTP ${u.last_failure.status})`}`
                    : 'none'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        <strong>ok</strong>: the latest attempt succeeded and at least 95% of the last hour&apos;s did. <strong>degraded</strong>: the latest attempt
        failed, or fewer than 95% of the last hour&apos;s succeeded. <strong>down</strong>: the latest attempt failed and none succeeded in the last
        15 minutes. <strong>unused</strong>: not asked in the last 7 days. Latency is that of successful answers over 24 hours, read from a histogram:
        each figure is the upper bound of its bin.
      </p>
      <h2 id="agreement">The two live sources agree?</h2>
      <p>
        gold-api.com against the mid of Swissquote&apos;s quote, each new pair of fresh prices over the last 24 hours. Past{' '}
        {status.agreement[0]?.threshold_bp ?? 150} basis points the cross-check fails and the price nearer the last one served is chosen.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">metal</th>
            <th scope="col">pairs</th>
            <th scope="col">median gap</th>
            <th scope="col">largest gap</th>
            <th scope="col">cross-check failures</th>
          </tr>
        </thead>
        <tbody>
          {status.agreement.map((a) => (
            <tr key={a.metal}>
              <th scope="row">{a.metal}</th>
              <td>{a.pairs}</td>
              <td>{a.median_bp === null ? '—' : `${a.median_bp} bp`}</td>
              <td>{a.max_bp === null ? '—' : `${a.max_bp} bp`}</td>
              <td>{a.cross_check_failures}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="record">The record</h2>
      <p>
        The daily spot bars this service keeps (<a href="/docs/data#change">how</a>), over the last 30 market sessions, and the 2-minute
        sampler&apos;s last run. A missing session is one the market was open for, after the first bar kept, with no bar: nothing is filled in.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">metal</th>
            <th scope="col">sessions with a bar</th>
            <th scope="col">missing sessions</th>
            <th scope="col">latest bar</th>
            <th scope="col">sampler&apos;s last run</th>
          </tr>
        </thead>
        <tbody>
          {status.record.map((r) => {
            const held = r.sessions.filter((s) => s.origin !== null);
            const latest = held[held.length - 1];
            return (
              <tr key={r.metal}>
                <th scope="row">{r.metal}</th>
                <td>
                  {held.length} of {r.sessions.length}
                </td>
                <td>{r.missing_sessions.length ? r.missing_sessions.join(', ') : 'none'}</td>
                <td>
                  {latest
                    ? `${latest.date}, ${latest.origin}${latest.n === null ? '' : `, ${latest.n} prices`}${latest.final ? '' : ' (in progress)'}`
                    : 'none'}
                </td>
                <td>{r.sampler.last_run ? `${when(r.sampler.last_run)}: ${r.sampler.outcome ?? '—'}` : 'never'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h2 id="alerts">Price alerts</h2>
      <p>
        The <a href="/docs/alerts">price alerts</a> kept by this deployment
        {status.alerts.enabled ? '' : ', turned off here (ALERTS=off)'}: the alerts held now, and the events since the store began, every instance
        counted.
      </p>
      <table>
        <tbody>
          {ALERT_FIGURES.map(([key, label]) => (
            <tr key={key} id={`alerts-${key}`}>
              <th scope="row">{label}</th>
              <td>{status.alerts[key]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The alert counts of /api/v1/status, in the order the page lists them, each with its words. */
const ALERT_FIGURES: [Exclude<keyof Status['alerts'], 'enabled'>, string][] = [
  ['armed', 'armed: a crossing would fire them'],
  ['pending', 'waiting for their webhook to answer the verification'],
  ['failing', 'failing: their latest delivery failed'],
  ['fired', 'events fired'],
  ['delivered', 'events delivered'],
  ['failed', 'events that could not be delivered'],
];
