import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm run bench` runs under plain Node, outside the test runner: a module it loads that imports vitest (a test
// support file it shares with the tests) stops it before its first section, and nothing else would notice. This loads
// every section's modules as `npm run bench` does, picking no section, so the run starts and ends at once.

const ROOT = path.resolve(__dirname, '../../..');

describe('the benchmark', () => {
  it('loads every section under plain Node (no module of it needs the test runner)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'no-section'], { cwd: ROOT, encoding: 'utf8', timeout: 50_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^# Benchmark: /);
  });
});
