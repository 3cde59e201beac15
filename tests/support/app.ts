import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { checkContract } from './contract';

// Starts the real built app (server.mjs: `next start` plus compression) on a free port with its own store folder, and stops
// it. The build is made once per test run by `npm test` (`next build`) and reused by every app.

export const ROOT = path.resolve(__dirname, '../..');

/** The Node flags `npm start` gives server.mjs (package.json's start script): every test app runs as `npm start` runs. */
export const START_FLAGS: string[] = (() => {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const flags = / node ((?:--\S+ )*)server\.mjs$/.exec(start);
  if (!flags) throw new Error(`package.json's start script no longer ends in "node [flags] server.mjs": ${start}`);
  return flags[1].split(' ').filter(Boolean);
})();

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface AppOptions {
  env?: Record<string, string>;
  /** Reuse a store folder (to test restarts or share state); a fresh temp one otherwise. */
  dataDir?: string;
  /** Another checkout's build to run instead of this one (the benchmark's baseline). */
  root?: string;
}

/**
 * The upstream timeout every test app gets unless it sets its own: the service's default, far above the
 * fake upstream's normal latency. The fake answers from the test's own process, which a loaded 2-core
 * machine can starve for a second or more: with 1.5 s a healthy source timed out there and spot answered
 * 503 (`prices/metals.test.ts`). A test that needs the timeout to fire makes the upstream hang, and does
 * not time the answer: a deadline that was ignored leaves the request held by the hang, and the test fails.
 */
export const TEST_UPSTREAM_TIMEOUT_MS = 5000;

/** What every test app runs with unless it sets its own (tests/support/in-process.ts too). */
export const TEST_APP_ENV: Record<string, string> = {
  SAMPLER: 'off',
  UPSTREAM_TIMEOUT_MS: String(TEST_UPSTREAM_TIMEOUT_MS),
  // Tests see the app itself; the response cache in front is tested on its own (response-cache.test.ts).
  RESPONSE_CACHE: 'off',
  // Tests count upstream calls from a cold start; the boot-time fetch is tested where it matters.
  WARM_FEEDS: 'off',
};

/** How long server.mjs lets answers under way finish after SIGTERM before it cuts them, saying so in its output. */
export const SERVER_GRACE_MS = 5000;

export class App {
  url = '';
  output = '';
  private child: ChildProcess | null = null;
  private root = ROOT;

  private constructor(
    readonly dataDir: string,
    private env: Record<string, string>,
  ) {}

  static async start(opts: AppOptions = {}): Promise<App> {
    const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-test-'));
    const app = new App(dataDir, { ...TEST_APP_ENV, ...opts.env });
    app.root = opts.root ?? ROOT;
    await app.boot();
    return app;
  }

  /** Stops and starts again on the same store folder and environment (new port). */
  async restart(env: Record<string, string> = {}): Promise<void> {
    await this.stop();
    Object.assign(this.env, env);
    await this.boot();
  }

  /** The server's process id (the benchmark reads its memory). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get(pathAndQuery: string, init?: RequestInit): Promise<Response> {
    return fetch(this.url + pathAndQuery, init);
  }

  async json<T = any>(pathAndQuery: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }> {
    const res = await this.get(pathAndQuery, init);
    const text = await res.text();
    let body: T;
    try {
      body = JSON.parse(text) as T;
    } catch {
      throw new Error(`${pathAndQuery}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
    }
    checkContract(pathAndQuery, res.status, body);
    return { status: res.status, body, headers: res.headers };
  }

  // The app counts as ready only when this process itself says it listens on the port it was given:
  // another test's app that took the port first would answer a probe, but cannot print to our pipe.
  // A port taken between the pick and the bind makes the child exit (EADDRINUSE): try another one.
  private async boot(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        return await this.bootOn(port);
      } catch (err) {
        if (attempt >= 5 || !/EADDRINUSE/.test(this.output)) throw err;
      }
    }
  }

  private async bootOn(port: number): Promise<void> {
    this.url = `http://127.0.0.1:${port}`;
    this.output = '';
    const child = spawn(process.execPath, [...START_FLAGS, 'server.mjs'], {
      cwd: this.root,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        PORT: String(port),
        HOSTNAME: '127.0.0.1',
        DATA_DIR: this.dataDir,
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    const ready = `Ready on http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${this.output}`);
      if (this.output.includes(ready)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`server not ready after 30 s:\n${this.output}`);
  }

  /** Kills the server at once (SIGKILL), as a crash would: nothing of its own runs after this. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    // Gone by a signal (its exitCode stays null): nothing is left to stop.
    this.child = null;
  }

  /** Stops the server as a platform does (SIGTERM), killing it only well after its own grace has run out and been logged. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, SERVER_GRACE_MS * 3);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }
}
