import http from 'node:http';
import type net from 'node:net';

/** One delivery as the receiver saw it: its path, its headers, its raw body (what the signature covers) and the body parsed. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; data: Record<string, unknown> };
}

/**
 * What the receiver answers to a delivery (`n`: the deliveries of that type on that path so far, this one included): an
 * HTTP status (a 2xx echoes a verification's challenge), or 'hang' to hold it unanswered.
 */
export type Answer = (json: Received['json'], path: string, n: number) => number | 'hang';

/**
 * A webhook receiver on 127.0.0.1 that keeps every delivery and answers as a willing target unless told otherwise: 200,
 * with the challenge echoed to a verification event. Tests allow it with ALERT_TARGETS_ALLOW. `url` is its `/hook`;
 * any other path on `origin` is received the same way.
 */
export async function startReceiver(answer: Answer = () => 200): Promise<{ server: http.Server; url: string; origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = JSON.parse(body);
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body, json });
      const status = answer(json, path, received.filter((r) => r.path === path && r.json.type === json.type).length);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(json.type === 'alert.verification' && status < 300 ? JSON.stringify({ challenge: json.data.challenge }) : '{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { server, url: `${origin}/hook`, origin, received };
}
