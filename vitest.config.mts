import { defineConfig } from 'vitest/config';

/** Integration files that time answers against bounds: they run after the others, two at a time. */
const TIMED = [
  'tests/integration/store/kv.test.ts',
  'tests/integration/store/store.test.ts',
  'tests/integration/prices/spot-states.test.ts',
  'tests/integration/mcp/mcp.test.ts',
  'tests/integration/series/chart.test.ts',
];

// Two projects: `unit` (tests/unit/**) needs no build and no app server, so `npm run test:unit`
// answers in seconds; `integration` starts the built app, redis-server and Chromium. `npm test`
// builds first and runs both.
export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    // Integration files spend much of their time waiting (for apps to boot, TTLs to pass, Chromium
    // to draw), so three at a time keep a 2-core machine busier than two. The files that time answers
    // against bounds (an upstream or KV timeout plus slack, a rate window) run afterwards, two at a
    // time, as every file did before: their bounds were set for that load.
    maxWorkers: 3,
    // The JSON report lets CI print one plain summary line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll waits for a page or an app to get somewhere; vitest's 1 s is short for a loaded
    // 2-core machine running Chromium and two apps. A poll ends as soon as it holds, so this costs
    // a passing run nothing.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/browser/**/*.test.ts'],
          exclude: TIMED,
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED,
          globalSetup: ['tests/support/global-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
