import { spawn, type ChildProcess } from 'node:child_process';
import { createClient } from '@redis/client';
import { freePort } from './app';

// Debian's redis-server for the tests (scripts/test-deps.mjs installs it): on a free port of 127.0.0.1 (or the one
// asked for, to start a server again where one was), in the foreground, with no persistence, killed after. With a
// password it requires one (`requirepass`, the `default` user), as a deployment's Redis would; `url` then carries it.
// With `tls` (certificate and key files, PEM) it speaks TLS only, and `url` is `rediss://`. It can be paused and
// resumed (SIGSTOP, SIGCONT): connections stay open and commands are accepted but not answered, as with a server that
// hangs.

export interface RedisServerOptions {
  password?: string;
  port?: number;
  tls?: { cert: string; key: string };
}

export class RedisServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly password: string | null,
    private readonly scheme: 'redis' | 'rediss',
  ) {}

  /** The server's URL, with its password when it has one. */
  get url(): string {
    return this.urlWith(this.password);
  }

  /** The server's URL with `password` (null: none), to connect as a client who holds another. */
  urlWith(password: string | null): string {
    return `${this.scheme}://${password === null ? '' : `:${encodeURIComponent(password)}@`}127.0.0.1:${this.port}`;
  }

  static async start(opts: RedisServerOptions = {}): Promise<RedisServer> {
    const port = opts.port ?? (await freePort());
    const listen = opts.tls
      ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', opts.tls.cert, '--tls-key-file', opts.tls.key, '--tls-auth-clients', 'no']
      : ['--port', String(port)];
    const args = [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
    if (opts.password) args.push('--requirepass', opts.password);
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (err) => resolve(err));
    });
    if (spawned) throw new Error(`cannot start redis-server (${spawned.message}): install it with \`apt-get install -y redis-server\``);
    const server = new RedisServer(child, port, opts.password ?? null, opts.tls ? 'rediss' : 'redis');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`redis-server exited ${child.exitCode}: ${output}`);
      // Ready once it answers a PING (over TLS: once it listens, the test's CA may not be trusted yet).
      const client = opts.tls
        ? createClient({ url: server.url, RESP: 2, socket: { tls: true, rejectUnauthorized: false, reconnectStrategy: false } })
        : createClient({ url: server.url, RESP: 2, socket: { reconnectStrategy: false } });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.ping();
        await client.quit();
        return server;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    child.kill('SIGKILL');
    throw new Error(`redis-server not ready after 10 s: ${output}`);
  }

  /** Stops answering (SIGSTOP): connections and commands are accepted by the kernel, nothing is answered. */
  pause(): void {
    this.child.kill('SIGSTOP');
  }

  /** Answers again (SIGCONT), the commands that waited first. */
  resume(): void {
    this.child.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }
}
