import http from 'node:http';
import type net from 'node:net';

/** One delivery as the receiver saw it: its headers, its raw body (what the signature covers) and the body parsed. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; data: Record<string, unknown> };
}

/**
 * A webhook receiver on 127.0.0.1 that keeps every delivery and answers as a willing target: 200, with the challenge
 * echoed to a verification event. Tests allow it with ALERT_TARGETS_ALLOW.
 */
export async function startReceiver(): Promise<{ server: http.Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = JSON.parse(body);
      received.push({ headers: req.headers, body, json });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json.type === 'alert.verification' ? JSON.stringify({ challenge: json.data.challenge }) : '{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`, received };
}
