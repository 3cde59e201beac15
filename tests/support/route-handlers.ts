import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, vi } from 'vitest';
import { checkContract } from './contract';
import { FakeUpstream } from './fake-upstream';

// REST route handlers called in process, Request in, Response out: no build and no server. Every upstream is the fake
// (recorded real bodies), the store a fresh embedded one, every cache 1 s.

/**
 * Starts the fake upstream before the file's tests and points the service at it (the service reads its environment
 * lazily, so this is in place before the first call), with a store folder named for the file; stops it after them.
 * The fake is handed back by the getter once started.
 */
export function onFakeUpstream(name: string): () => FakeUpstream {
  let fake: FakeUpstream | undefined;
  beforeAll(async () => {
    fake = await FakeUpstream.start();
    for (const [k, v] of Object.entries(fake.env())) vi.stubEnv(k, v);
    vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), `goldapi-${name}-`)));
    vi.stubEnv('UPSTREAM_TIMEOUT_MS', '1500');
    vi.stubEnv('CACHE_TTL_S', '1');
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake?.close();
  });
  return () => fake!;
}

export type Handler = (req: Request) => Promise<Response>;

/** Calls `handler` with a request for `pathAndQuery`; the JSON body is checked against the OpenAPI document, as over HTTP. */
export async function callRoute(handler: Handler, pathAndQuery: string, init?: RequestInit) {
  const res = await handler(new Request(`http://t${pathAndQuery}`, init));
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (body !== null) checkContract(pathAndQuery, res.status, body);
  return { status: res.status, body, headers: res.headers };
}
