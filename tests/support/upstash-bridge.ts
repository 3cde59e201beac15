import crypto from 'node:crypto';
import http from 'node:http';
import { createClient } from '@redis/client';
import { freePort } from './app';

export { RedisServer } from './redis-server';

// A real Redis behind the Upstash REST protocol, so the real @upstash/redis client (and the app's
// KV store on it) runs end to end in tests. `RedisServer` (tests/support/redis-server.ts) starts
// Debian's redis-server; `UpstashBridge` is a small HTTP server speaking what the client sends:
//   POST /            body ["CMD", "arg", ...]        → {"result": …} (HTTP 400 {"error"} on a command error)
//   POST /pipeline    body [["CMD", …], …]            → [{"result"}|{"error"}, …], not atomic
//   POST /multi-exec  body [["CMD", …], …]            → the same, in one MULTI/EXEC
//   Authorization: Bearer <token>, else 401 {"error"}
//   Upstash-Encoding: base64 → every string in a result base64 (UTF-8), except a top-level "OK"
// over node-redis (@redis/client) speaking RESP2 (RESP3 would change reply shapes). The bridge counts
// the requests it receives, can be stopped and restarted on the same port (a KV outage: connections
// refused), can be made to hang (requests accepted, never answered) or slow (each answer delayed: a
// store far away, whose writes take a while).

type Reply = string | number | null | Reply[];

const connectRedis = (url: string) => createClient({ url, RESP: 2 });

export interface BridgeCounts {
  /** HTTP requests answered or held, whatever their path. */
  requests: number;
  /** Redis commands run (a pipeline of three counts three). */
  commands: number;
  byPath: Record<string, number>;
}

export class UpstashBridge {
  readonly counts: BridgeCounts = { requests: 0, commands: 0, byPath: {} };
  url = '';
  private server: http.Server | null = null;
  private port = 0;
  private hanging = false;
  private delayMs = 0;
  private held = new Set<http.ServerResponse>();

  private constructor(
    private readonly redis: ReturnType<typeof connectRedis>,
    readonly token: string,
  ) {}

  static async start(redisUrl: string, token = crypto.randomBytes(16).toString('hex')): Promise<UpstashBridge> {
    const redis = connectRedis(redisUrl);
    redis.on('error', () => {});
    await redis.connect();
    const bridge = new UpstashBridge(redis, token);
    bridge.port = await freePort();
    bridge.url = `http://127.0.0.1:${bridge.port}`;
    await bridge.listen();
    return bridge;
  }

  /** Environment for the app under test: the KV variables pointing here, with a key prefix of its own. */
  env(prefix = `test-${crypto.randomBytes(4).toString('hex')}:`): Record<string, string> {
    return { KV_REST_API_URL: this.url, KV_REST_API_TOKEN: this.token, KV_PREFIX: prefix };
  }

  resetCounts(): void {
    this.counts.requests = 0;
    this.counts.commands = 0;
    this.counts.byPath = {};
  }

  /** Stops listening and drops every connection: clients now get "connection refused". */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.release();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again on the same port and address. */
  async restart(): Promise<void> {
    if (!this.server) await this.listen();
  }

  /** Every answer from now on comes `ms` after its request (0: at once). */
  slow(ms: number): void {
    this.delayMs = ms;
  }

  /** While on, requests are accepted and never answered; turning it off drops the held ones. */
  hang(on = true): void {
    this.hanging = on;
    if (!on) this.release();
  }

  async close(): Promise<void> {
    await this.stop();
    await this.redis.quit().catch(() => {});
  }

  private release() {
    for (const res of this.held) res.destroy();
    this.held.clear();
  }

  private async listen(): Promise<void> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = (req.url ?? '/').split('?')[0];
    this.counts.requests++;
    this.counts.byPath[path] = (this.counts.byPath[path] ?? 0) + 1;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (this.hanging) {
      this.held.add(res);
      return;
    }
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (req.headers.authorization !== `Bearer ${this.token}`) return send(res, 401, { error: 'Unauthorized' });
    if (req.method !== 'POST') return send(res, 405, { error: 'Method not allowed' });
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: 'ERR failed to parse request body' });
    }
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const out = (r: Reply) => (base64 ? encodeTop(r) : r);
    try {
      if (path === '/') {
        if (!isCommand(body)) return send(res, 400, { error: 'ERR body must be a command array' });
        this.counts.commands++;
        try {
          return send(res, 200, { result: out(await this.run(body)) });
        } catch (err) {
          return send(res, 400, { error: message(err) });
        }
      }
      if (path === '/pipeline' || path === '/multi-exec') {
        if (!Array.isArray(body) || !body.every(isCommand)) return send(res, 400, { error: 'ERR body must be an array of commands' });
        this.counts.commands += body.length;
        const replies = path === '/pipeline' ? await this.pipeline(body) : await this.multi(body);
        if (!Array.isArray(replies)) return send(res, 400, { error: replies.error });
        return send(
          res,
          200,
          replies.map((r) => (r instanceof Error ? { error: r.message } : { result: out(r) })),
        );
      }
      return send(res, 404, { error: 'Not found' });
    } catch (err) {
      return send(res, 500, { error: message(err) });
    }
  }

  private run(cmd: unknown[]): Promise<Reply> {
    return this.redis.sendCommand(cmd.map(String)) as Promise<Reply>;
  }

  private async pipeline(cmds: unknown[][]): Promise<(Reply | Error)[]> {
    return Promise.all(cmds.map((c) => this.run(c).catch((err: unknown) => new Error(message(err)))));
  }

  private async multi(cmds: unknown[][]): Promise<(Reply | Error)[] | { error: string }> {
    const m = this.redis.multi();
    for (const c of cmds) m.addCommand(c.map(String));
    try {
      return (await m.exec()) as unknown as Reply[];
    } catch (err) {
      // A command that failed inside EXEC: the others ran; report each in its place.
      const replies = (err as { replies?: unknown[] }).replies;
      if (Array.isArray(replies)) return replies.map((r) => (r instanceof Error ? new Error(r.message) : (r as Reply)));
      return { error: message(err) };
    }
  }
}

function isCommand(x: unknown): x is unknown[] {
  return Array.isArray(x) && x.length > 0 && x.every((a) => ['string', 'number', 'boolean'].includes(typeof a));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Upstash's base64 result encoding: a top-level "OK" stays as it is, every other string is encoded. */
function encodeTop(r: Reply): Reply {
  return r === 'OK' ? r : encode(r);
}
function encode(r: Reply): Reply {
  if (typeof r === 'string') return b64(r);
  if (Array.isArray(r)) return r.map(encode);
  return r;
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
