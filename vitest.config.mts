import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that take more than a few seconds, longest first within each project (their times in a CI run at
 * four files at a time, BENCHMARKS §20, §22 and §23). A long file started last is a run that ends on one busy worker;
 * started first, the short files fill in around it. A fresh clone has no timings of its own (the runner would order by file size,
 * and left a fresh clone's run 30–40 s longer than the same run in a checkout with timings), and a list gone stale
 * costs only time.
 */
const LONGEST = [
  'integration/store/many-instances',
  'browser/live',
  'browser/docs',
  'integration/store/store',
  'integration/store/kv',
  'browser/widgets',
  'integration/http/stream',
  'browser/price-pages',
  'browser/widget-languages',
  'integration/status/status',
  'integration/series/london',
  'integration/alerts/alerts',
  'browser/mcp-apps',
  'integration/prices/spot-states',
  'integration/store/data-dir',
  'browser/landing',
  'integration/http/origin',
  'integration/series/intraday',
  'integration/mcp/mcp',
  'integration/mcp/mcp-batch',
  'integration/series/spot-history',
  'browser/contrast',
  'integration/prices/movement',
  'integration/mcp/mcp-conformance',
  'integration/docs/openapi-tools',
  'integration/series/chart',
  'integration/http/methods',
  'integration/site/price-pages',
  'integration/server/response-cache',
  'browser/price-chart',
  'integration/server/page-validators',
  'integration/prices/metals',
  'integration/prices/imported-bars',
  'integration/series/csv',
  'integration/prices/two-sources',
  'integration/series/history-currency',
  'browser/status',
  'unit/prices/two-sources',
  'unit/prices/metals',
  'unit/prices/spot-states',
  'unit/http/conditional',
  'unit/store/store',
  'unit/series/history-currency',
  'unit/server/response-cache-memory',
  'unit/series/london',
  'unit/alerts/alert-edges',
  'unit/series/monthly',
  'unit/server/response-cache',
  'unit/mcp/mcp-states',
  'unit/sources/worldbank',
  'unit/layout/lint-layers',
  'unit/alerts/alerts',
  'unit/http/stream',
  'unit/prices/value',
  'unit/series/sampler',
  'unit/series/spot-series',
  'unit/http/price-text',
  'unit/series/history-budget',
  'unit/prices/movement-route',
  'unit/series/history-route',
  'unit/series/intraday',
  'unit/http/routes',
].map((name) => `tests/${name}.test.ts`);

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((end) => f.moduleId.endsWith(`/${end}`));
      return i === -1 ? LONGEST.length : i;
    };
    // The runner's order first (projects by group, then its own); a stable sort keeps it among equals.
    return (await super.sort(files)).sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}

/** Integration files that run the data core inside the test process (see the `in-process` project below). */
const IN_PROCESS = [
  'tests/integration/prices/bars-observed.test.ts',
  'tests/integration/prices/london-kv.test.ts',
  'tests/integration/alerts/records-kv.test.ts',
  'tests/integration/prices/imported-bars.test.ts',
];

// Two kinds of project: `unit` (tests/unit/**) needs no build and no app server, so `npm run test:unit`
// answers in seconds; `integration` and `in-process` start the built app, redis-server and Chromium.
// `npm test` builds first and runs them all.
export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    // Integration files each start their own `next start` and spend much of their time waiting (TTLs,
    // timeouts, a sampler's interval), so four at a time keep a 2-core machine busy; six were no faster
    // (BENCHMARKS §20). Unit files, eight threads at a time, run first and alone.
    // Tests that bound a time load the route and warm the upstream first, untimed, so the bound holds
    // what it names and not a cold start slowed by the other files.
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
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
      // Eight at a time: their waits overlap (TTLs, a cross-process lock, and the route-handler scenarios run in process,
      // tests/support/in-process.ts, which mostly wait on TTLs and upstream timeouts). The three longest hold a thread
      // each for 30-45 s of mostly waiting; with six the other seventy files had three threads and the unit run took
      // 60-69 s (median 62), with eight 50-67 s (median 57) at the same CPU (BENCHMARKS §22f). They run first, on a
      // quiet machine, then the integration files.
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], pool: 'threads', maxWorkers: 8, sequence: { groupOrder: 0 } },
      },
      // One process per worker runs file after file: the test process's own start (the runner, Playwright, the
      // MCP client, the compiled contract validators) is paid once per worker rather than once per file, about
      // 100 s of CPU a run (BENCHMARKS §20). These files share nothing through module state: each starts its own apps
      // and fakes and opens its own browser pages (the browser is the worker's, tests/support/browser.ts), and what
      // support modules keep is read-only (parsed fixtures, compiled schemas).
      {
        extends: true,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['tests/integration/**/*.test.ts', 'tests/browser/**/*.test.ts'],
          exclude: IN_PROCESS,
          isolate: false,
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      // Files that load the data core into the test process and change its environment, globals and module
      // registry (instances simulated in-process): each in a process of its own.
      {
        extends: true,
        test: {
          name: 'in-process',
          sequence: { groupOrder: 1 },
          include: IN_PROCESS,
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
    ],
  },
});
