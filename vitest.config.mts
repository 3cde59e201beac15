import { defineConfig } from 'vitest/config';

// Two projects: `unit` (tests/unit/**) needs no build and no app server, so `npm run test:unit`
// answers in seconds; `integration` starts the built app, redis-server and Chromium. `npm test`
// builds first and runs both.
export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    // Integration files each start their own `next start`; two at a time suits a 2-core machine. Three
    // are faster (`.ci/run` 336–350 s against 395–414 s, BENCHMARKS §11), but under the extra load tests
    // that time answers against bounds broke in five of six runs, each time a different one, so two it is.
    maxWorkers: 2,
    // The JSON report lets CI print one plain summary line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll waits for a page or an app to get somewhere; vitest's 1 s is short for a loaded
    // 2-core machine running Chromium and two apps. A poll ends as soon as it holds, so this costs
    // a passing run nothing.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      // Worker threads start faster than processes; unit tests start no server and need no process of their own.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], pool: 'threads' } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/browser/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
    ],
  },
});
