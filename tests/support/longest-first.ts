import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that take longest, longest first (their times in BENCHMARKS §11's runs). With
 * three files at a time, a long file started last is a run that ends on one busy worker; started first,
 * the short files fill in around it. A fresh clone has no timings of its own (the runner would order
 * by file size), and a list gone stale costs only time.
 */
const LONGEST = [
  'prices/spot-states',
  'mcp/mcp',
  'store/kv',
  'prices/two-sources',
  'browser/widgets',
  'prices/metals',
  'browser/docs',
  'http/stream',
  'browser/widget-languages',
  'series/intraday',
  'browser/live',
  'store/data-dir',
  'prices/movement',
  'browser/contrast',
  'browser/landing',
  'series/spot-history',
].map((name) => `/${name}.test.ts`);

export default class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((end) => f.moduleId.endsWith(end));
      return i === -1 ? LONGEST.length : i;
    };
    // The runner's order first (projects by group, then its own); a stable sort keeps it among equals.
    return (await super.sort(files)).sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}
