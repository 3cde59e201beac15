import type { PageConfig } from 'next';
import {
  ALERTS_PER_TARGET,
  CREATIONS_PER_HOUR,
  DELIVERIES_AT_ONCE,
  DELIVERIES_PER_HOST,
  ENDED_KEPT_MS,
  LOOKUP_DEADLINE_MS,
  LOOKUPS_BUSY_RETRY_S,
} from '@/lib/alerts/model';
import { Code } from '@/site/code';
import { PageHead } from '@/site/layout';
import { originProps } from '@/site/page-props';

export const config: PageConfig = { unstable_runtimeJS: false };
// Rendered per request so the examples name the origin they are served from.
export const getServerSideProps = originProps;

const RECEIVER = `import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.ALERT_SECRET); // the whsec_… the service gave you

http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let event;
    try {
      event = wh.verify(body, req.headers); // throws unless signed with your secret, within 5 minutes
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (event.type === 'alert.verification') {
      // Prove you asked for alerts: answer 2xx with the challenge in the body.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge: event.data.challenge }));
      return;
    }
    console.log(\`\${event.data.metal} \${event.data.condition.type} \${event.data.condition.value}: \${event.data.price} \${event.data.currency}/\${event.data.unit}\`);
    res.writeHead(204).end(); // any 2xx; the same webhook-id may come again after a retry: deduplicate on it
  });
}).listen(8080);`;

export default function AlertsDocs({ origin }: { origin: string }) {
  const create = `curl -X POST ${origin}/api/v1/alerts -H 'content-type: application/json' \\
  -d '{"metal":"gold","currency":"EUR","unit":"gram","above":140,"webhook":{"url":"https://example.com/hooks/gold"}}'`;
  const created = `{
  "id": "alrt_…",
  "status": "pending",
  "manage_url": "${origin}/api/v1/alerts/alrt_…?token=…",
  "expires_at": "…",
  "secret": "whsec_…",
  "data_state": { … },
  "updated_at": "…"
}`;
  const event = `POST /hooks/gold
webhook-id: msg_…
webhook-timestamp: 1767621600
webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">

{"type":"alert.triggered","timestamp":"…","data":{"alert_id":"alrt_…","metal":"gold","currency":"EUR","unit":"gram",
 "condition":{"type":"above","value":140},"price":140.0312,"previous":139.9874,"crossed_at":"…",
 "data_state":{"status":"fresh",…},"source":"gold-api.com"}}`;
  return (
    <>
      <PageHead title="Price alerts" description="Keyless gold price alerts delivered to your webhook, signed per Standard Webhooks." />
      <h1>Price alerts, keyless</h1>
      <p className="lead">
        Ask once, without an account: the service calls your webhook when gold (or silver, platinum, palladium) crosses a level in your currency and
        unit, or moves a given percentage against the previous close.
      </p>

      <h2 id="create">Create one</h2>
      <Code title="POST /api/v1/alerts (JSON, at most 4 KB)">{create}</Code>
      <Code title="201 Created">{created}</Code>
      <ul>
        <li>
          One condition: <code>above</code> or <code>below</code> a level (positive, in the alert’s currency and unit), or <code>move_pct</code> P:
          the day change against the previous close (spot’s <code>change_pct</code>) reaching +P or −P %.
        </li>
        <li>
          <code>repeat: false</code> (default) fires once. <code>repeat: true</code> re-arms after the price goes back past the level by{' '}
          <code>rearm_pct</code> (default 0.5 %; percentage points for <code>move_pct</code>) and fires at most once in 10 minutes: a crossing within
          10 minutes of the last event is not sent, and the alert stays armed for the next one.
        </li>
        <li>
          Keep <code>manage_url</code> and <code>secret</code>: they are shown once. <code>GET manage_url</code> shows the alert, its status (
          <code>pending</code>, <code>active</code>, <code>fired</code>, <code>failing</code>, <code>disabled</code>, <code>expired</code>) and its
          latest deliveries; <code>DELETE manage_url</code> removes it (204). A wrong token is a 404.
        </li>
        <li>
          A repeating <code>move_pct</code> must be above its <code>rearm_pct</code> (it re-arms once the change is back within{' '}
          <code>move_pct − rearm_pct</code> points); otherwise the answer is a 400 that says so.
        </li>
        <li>
          {CREATIONS_PER_HOUR} creations per client address per hour (429 with <code>Retry-After</code> and <code>RateLimit</code> headers). Each
          creation counts before anything else is done for it, refused ones included: a body that is not JSON, an invalid alert or a target that is
          refused uses up the limit as a created alert does. {ALERTS_PER_TARGET} live (pending, active or failing) alerts per webhook URL or push
          endpoint.
        </li>
        <li>
          The webhook URL must be <code>https</code> on a public address: no user name or password, nothing that is or resolves to a loopback,
          private, link-local, carrier-grade NAT, multicast or unique-local address, checked again on every delivery against the address connected to.
          Its name is looked up by the service’s own DNS queries, given {LOOKUP_DEADLINE_MS / 1000} s (a name that does not resolve by then is a 400);
          a few lookups run at once, and a creation that finds them all taken is answered 503 with <code>Retry-After: {LOOKUPS_BUSY_RETRY_S}</code>.
        </li>
        <li>
          Alerts expire after 90 days; one whose target never answered the verification, after 24 hours. Either stops counting (against its target’s
          limit, in <code>/api/v1/status</code>) at that moment; its manage URL says <code>expired</code> for {ENDED_KEPT_MS / 3_600_000} hours, then
          the alert is gone (404).
        </li>
      </ul>

      <h2 id="verification">Your target proves it asked</h2>
      <p>
        First comes an <code>alert.verification</code> event with a <code>challenge</code>. The alert becomes <code>active</code> only when your
        answer is 2xx within 10 s with the challenge in its body; until then it is <code>pending</code>, and it expires after 24 hours.
      </p>

      <h2 id="events">What is delivered</h2>
      <p>
        On every fresh reading of the metal the service takes, a crossing between the previous reading and this one (previous &lt; level ≤ current for{' '}
        <code>above</code>) sends one event: never on a stale or unavailable price, and the price is spot’s, in your currency and unit, rounded as
        spot rounds it. Both readings must be taken after the alert was armed (verified, or re-armed): a level already passed when you asked does not
        fire at once. Each crossing is delivered once, whichever instance saw it.
      </p>
      <p>
        The event is written in the same store operation that marks the alert fired, so a crash or a store failure between the two cannot lose it; an
        instance that stops mid-delivery leaves it to another (or to itself, started again) within seconds. The same event may therefore arrive twice,
        with the same <code>webhook-id</code>: deduplicate on it.
      </p>
      <Code title="A delivery (Standard Webhooks)">{event}</Code>
      <p>
        A timeout (10 s), a network error, 429 or 5xx is retried with the same <code>webhook-id</code> after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h.
        Any other 4xx fails the event at once; 410 disables the alert; three events in a row that fail disable it. Redirects are not followed. Each
        instance sends at most {DELIVERIES_AT_ONCE} deliveries at once, one at a time per target URL and {DELIVERIES_PER_HOST} per webhook host: a
        target that is slow to answer holds its own turn, up to its 10 s, and no one else’s.
      </p>

      <h2 id="receiver">A receiver that verifies each delivery</h2>
      <Code title="node receiver.mjs (npm install standardwebhooks)">{RECEIVER}</Code>

      <h2 id="push">Web Push: alerts in the browser</h2>
      <p>
        Instead of <code>webhook</code>, send <code>push</code>: a browser’s <code>PushSubscription</code> (<code>subscription.toJSON()</code>) on a
        known push service (Google, Mozilla, Apple, Microsoft), subscribed with the key of <code>GET {origin}/api/v1/alerts/push-key</code> as{' '}
        <code>applicationServerKey</code>. The subscription is the browser’s own consent: the alert is active at once and has no secret. Each event is
        a notification encrypted for that browser (RFC 8291, <code>aes128gcm</code>), signed with the deployment’s VAPID key, with a TTL and a{' '}
        <code>Topic</code> per alert; its JSON holds a <code>title</code> such as “Gold above €140.00/g”, a <code>body</code> with the price and its
        time, the <code>url</code> a click opens and the same <code>data</code> as a webhook event. It is also a Declarative Web Push message (
        <code>web_push: 8030</code> and <code>notification</code> with <code>title</code>, <code>body</code>, <code>navigate</code>, <code>tag</code>
        ), so Safari 18.4 and later show it without running the page’s service worker; where the worker runs, it shows the same. A 404 or 410 from the
        push service means the browser unsubscribed: every alert of that subscription is deleted.
      </p>

      <h2 id="operators">Operators</h2>
      <p>
        <code>ALERTS=off</code> turns alerts off (the endpoints answer 503, and the price pages offer no “Notify me”). <code>VAPID_PUBLIC_KEY</code>,{' '}
        <code>VAPID_PRIVATE_KEY</code> and <code>VAPID_SUBJECT</code> (a <code>mailto:</code> or https URL) set the Web Push key; without them a key
        pair is made once and kept in the store. <code>ALERT_TARGETS_ALLOW</code> (hosts or CIDRs, comma-separated) allows targets beyond public https
        addresses, <code>http</code> included; a host allowed by name is looked up by the system’s resolver (<code>/etc/hosts</code>, a container’s
        names), any other by the DNS servers the system names. <code>ALERT_RETRY_SCHEDULE_S</code> sets the retry delays. Alerts live in the store
        (embedded or KV) and survive restarts; <code>/api/v1/status</code> and <code>/metrics</code> count them. On a platform that freezes instances
        between requests, retries due in between run with the next sampling (the cron, every 2 minutes).
      </p>
    </>
  );
}
