import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, ROOT } from '../../support/app';
import { FakeUpstream } from '../../support/fake-upstream';

// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against the built app. Each protocol revision the endpoint serves runs the scenarios that revision
// requires, at its own wire (2025-11-25: initialize first; 2026-07-28: stateless, `_meta` on every
// request). The scenarios that cannot apply to a stateless server with tools and two views only
// (prompts, the suite's fixture resources, sampling, its own test tools…) are listed, each with its reason, in
// tests/conformance/expected-failures-<revision>.yml; any other failure fails the run, and so does a
// listed scenario that starts to pass (the suite reports the list as stale). Scenarios the suite runs
// but does not score for a revision (pending ones) are run on their own where they apply.

const BIN = path.join(ROOT, 'node_modules', '.bin', 'conformance');
/** One list per revision: the same scenario can be inapplicable at one wire and pass at the other. */
const baseline = (revision: string) => path.join(ROOT, 'tests', 'conformance', `expected-failures-${revision}.yml`);

let fake: FakeUpstream;
let app: App;
let out: string;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  // The suite sends a few hundred requests: a 1 s window keeps them under the 120-per-window limit.
  app = await App.start({ env: { ...fake.env(), MCP_RATE_WINDOW_S: '1' } });
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-conformance-'));
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

/** Runs the suite's CLI; resolves with its exit code and output (the output is the failure message). */
function conformance(revision: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      BIN,
      ['server', '--url', `${app.url}/mcp`, '--expected-failures', baseline(revision), '-o', out, ...args],
      { timeout: 240_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

describe('mcp: the official conformance suite', () => {
  for (const revision of ['2025-11-25', '2026-07-28']) {
    it(`every scenario ${revision} requires passes, save the ones that cannot apply`, { timeout: 300_000 }, async () => {
      const { code, output } = await conformance(revision, ['--requirements', revision]);
      expect(code, output.slice(-6000)).toBe(0);
    });
  }

  it('2026-07-28 header validation (Mcp-Method, Mcp-Name, MCP-Protocol-Version against the body), pending in the suite, passes too', async () => {
    const { code, output } = await conformance('2026-07-28', ['--scenario', 'http-header-validation', '--spec-version', '2026-07-28']);
    expect(code, output.slice(-6000)).toBe(0);
    expect(output).toMatch(/Passed: ([1-9]\d*)\/\1, 0 failed, 0 warnings/);
  });
});
