import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from '@/lib/sources/upstream/fetch';

// The upstream timeout measures the upstream, not the process: an answer that arrived while the
// event loop was busy elsewhere is read, and a hung upstream still times out.

/** The late upstream answers this long after a request: ten times the timeout. */
const LATE_MS = 10_000;
/** What became of the late upstream's request: answered, or left by the client first. */
let late: 'waiting' | 'answered' | 'left' = 'waiting';

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/late') {
      const answer = setTimeout(() => {
        late = 'answered';
        res.end('{"price":2}');
      }, LATE_MS);
      res.on('close', () => {
        clearTimeout(answer);
        if (!res.writableFinished) late = 'left';
      });
      return;
    }
    setTimeout(() => res.end('{"price":1}'), 50);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A second: a loopback answer of 50 ms still comes within it on a machine with every core busy.
  process.env.UPSTREAM_TIMEOUT_MS = '1000';
});
afterAll(() => {
  delete process.env.UPSTREAM_TIMEOUT_MS;
  server.closeAllConnections();
  server.close();
});

/** Keeps the event loop busy, as a burst of requests does. */
function busy(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

describe('upstream timeout', () => {
  it('an answer that came while the process was busy for longer than the timeout is still read', async () => {
    await getJson('warm-up', `${base}/ok`);
    const pending = getJson('test', `${base}/ok`);
    setTimeout(() => busy(1500), 10);
    await expect(pending).resolves.toEqual({ status: 200, body: { price: 1 } });
  });

  it('a slow upstream times out, never before the timeout, and before its answer comes', async () => {
    // The lower bound is the clock's (the count never runs ahead of it). The upper one is an event, not a deadline
    // that would measure the machine's load: the upstream's own answer, ten timeouts later. A call that did not
    // give up would get that answer; this one ends first, timed out, and leaves the connection (the upstream sees it go).
    const t0 = Date.now();
    await expect(getJson('test', `${base}/late`)).rejects.toMatchObject({ reason: 'timed out' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(990);
    expect(late).not.toBe('answered');
    await expect.poll(() => late).toBe('left');
  });
});
