import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { TEST_APP_ENV } from './app';
import { checkContract } from './contract';
import { FakeUpstream } from './fake-upstream';

/**
 * What a new process would find: the old one told to stop (its shutdown hooks run, its store closed), none of the
 * data core's process state left on globalThis (each `goldapi.*` slot: feeds, store, series, bars, hubs), and a module
 * registry that loads every module afresh. The data core keeps its state on globalThis because Next bundles each
 * route apart yet one process must share it; `vi.resetModules()` alone would hand the next "process" the old state.
 */
export async function newProcess(): Promise<void> {
  const g = globalThis as Record<symbol, unknown>;
  // The old process stops as a platform stops an instance: after the writes it was handed to finish (below).
  await Promise.allSettled(afterAnswers.splice(0));
  for (const hook of (g[Symbol.for('goldapi.shutdown')] as Set<() => void> | undefined) ?? []) hook();
  await (g[Symbol.for('goldapi.store')] as { close(): Promise<void> } | undefined)?.close();
  for (const s of Object.getOwnPropertySymbols(g)) if (s.description?.startsWith('goldapi.')) delete g[s];
  vi.resetModules();
}

/**
 * Writes that outlive an answer (lib/store/after-answer.ts) are handed to this process's stand-in for the platform's
 * `waitUntil`, so a restart lets them finish first, as a platform does and as `npm start`'s graceful stop leaves them
 * time to. Without it a restart right after an answer would lose the price that answer stored.
 */
const afterAnswers: Promise<unknown>[] = [];
(globalThis as Record<symbol, unknown>)[Symbol.for('@vercel/request-context')] = {
  get: () => ({ waitUntil: (write: Promise<unknown>) => void afterAnswers.push(write) }),
};

type Handler = (req: Request) => Promise<Response> | Response;
/** What a route module exports: a handler per HTTP method it takes. */
type RouteModule = Partial<Record<'GET' | 'HEAD' | 'POST' | 'OPTIONS' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;

/** The routes an in-process instance answers, by path: each loaded afresh in every new process. */
const ROUTES: Record<string, () => Promise<RouteModule>> = {
  '/api/v1/spot': () => import('@/app/api/v1/spot/route'),
  '/api/v1/history': () => import('@/app/api/v1/history/route'),
  '/api/v1/chart': () => import('@/app/api/v1/chart/route'),
  '/api/v1/intraday': () => import('@/app/api/v1/intraday/route'),
  '/api/v1/reserves': () => import('@/app/api/v1/reserves/route'),
  '/api/v1/value': () => import('@/app/api/v1/value/route'),
  '/api/v1/items': () => import('@/app/api/v1/items/route'),
  '/api/cron/sample': () => import('@/app/api/cron/sample/route'),
  '/mcp': () => import('@/app/mcp/route'),
  '/widgets/price': () => import('@/app/widgets/price/route'),
};

/** Where an in-process instance's requests say they go. */
const ORIGIN = 'http://127.0.0.1';

export type Answer = { status: number; headers: Headers; body: any };

/** One instance of the data core in this process, as `npm start` would run it (tests/support/app.ts's defaults). */
export interface Instance {
  readonly fake: FakeUpstream;
  readonly dataDir: string;
  /** What the instance logged (console.warn and console.error), kept as the built app's output is, not printed. */
  readonly output: string;
  /** The origin requests are made to (no server listens there: requests go straight to the handler). */
  readonly url: string;
  /**
   * A request to a route in ROUTES, Request in, Response out, by its method (HEAD by GET, as Next does): with the
   * signature of `fetch`, so a client that takes a fetch (the MCP SDK's transports) can talk to the instance.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The same, by path and query. */
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  /** The same, the body parsed as JSON and checked against the contract. */
  json(pathAndQuery: string, init?: RequestInit): Promise<Answer>;
  /** Stops this process and starts another on the same store folder and environment, `env` changed. */
  restart(env?: Record<string, string>): Promise<void>;
}

/**
 * Each test's own fake upstream, store folder and process state, given up after the test. Call at the top of a test
 * file; `prepare` shapes every fake before its instance starts, `env` is the default environment, replaced per
 * scenario. One instance at a time: process.env and globalThis are this test process's own.
 */
export function inProcessScenarios(defaults: { env?: Record<string, string>; prepare?: (fake: FakeUpstream) => void } = {}) {
  const open: { fake: FakeUpstream; dataDir: string }[] = [];
  afterEach(async () => {
    await newProcess();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    for (const { fake, dataDir } of open.splice(0)) {
      await fake.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  return async function scenario(setup?: (fake: FakeUpstream) => void, env: Record<string, string> = defaults.env ?? {}): Promise<Instance> {
    const fake = await FakeUpstream.start();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-in-process-'));
    open.push({ fake, dataDir });
    defaults.prepare?.(fake);
    setup?.(fake);
    const all: Record<string, string> = { ...TEST_APP_ENV, ...fake.env(), DATA_DIR: dataDir, ...env };
    for (const [k, v] of Object.entries(all)) vi.stubEnv(k, v);
    await newProcess();
    const output: string[] = [];
    const keep = (...args: unknown[]) => void output.push(args.map(String).join(' '));
    vi.spyOn(console, 'warn').mockImplementation(keep);
    vi.spyOn(console, 'error').mockImplementation(keep);
    const fetchIn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const req = new Request(input instanceof Request ? input : new URL(input, ORIGIN), init);
      const { pathname } = new URL(req.url);
      const load = ROUTES[pathname];
      if (!load) throw new Error(`${pathname}: not a route tests/support/in-process.ts loads`);
      const route = await load();
      const handler = route[req.method as keyof RouteModule] ?? (req.method === 'HEAD' ? route.GET : undefined);
      if (!handler) throw new Error(`${pathname}: the route exports no ${req.method}`);
      return handler(req);
    };
    return {
      fake,
      dataDir,
      url: ORIGIN,
      get output() {
        return output.join('\n');
      },
      fetch: fetchIn,
      get: fetchIn,
      async json(pathAndQuery, init) {
        const res = await fetchIn(pathAndQuery, init);
        const body = await res.json();
        checkContract(pathAndQuery, res.status, body);
        return { status: res.status, headers: res.headers, body };
      },
      async restart(env = {}) {
        await newProcess();
        for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
      },
    };
  };
}
