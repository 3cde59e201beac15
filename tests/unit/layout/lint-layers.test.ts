import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIB_LAYERS } from '@/eslint.config.mjs';

// lib/'s layout is enforced by lint: these plant what the rules exist to refuse (an upward import, an
// import from above lib/, a circle) into real files' text and expect lint to fail on each, and check that
// lib/README.md's table says what the rule enforces.

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

let eslint: ESLint;
/** The same configuration with its ignore patterns off, for the planted folders the project's lint skips. */
let probeLint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
  probeLint = new ESLint({ cwd: ROOT, ignore: false });
});

/** The rules a text breaks when it stands at `file`. */
async function broken(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/**
 * The rules broken by a.ts and b.ts, planted in a new folder under `folder` and linted from disk (the cycle rule reads
 * the other side of an import from disk, so a circle needs real files), then removed. The project's lint ignores
 * lint-probe-* folders, since it may run beside the tests; this instance lints them with every rule of their folder.
 */
async function plantedCircle(folder: string, a: string, b: string): Promise<(string | null)[]> {
  const dir = fs.mkdtempSync(path.join(ROOT, folder, 'lint-probe-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.ts'), a);
    fs.writeFileSync(path.join(dir, 'b.ts'), b);
    expect(await eslint.isPathIgnored(path.join(dir, 'a.ts'))).toBe(true);
    const results = await probeLint.lintFiles([path.join(dir, '*.ts')]);
    return results.flatMap((r) => r.messages.map((m) => m.ruleId));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('lib/ layout', () => {
  it('lib/README.md maps every folder of lib/ with the imports the lint rule allows', () => {
    const rows = read('lib/README.md')
      .split('\n')
      .map((line) => line.match(/^\| `(\w+)\/` \| [^|]+ \| ([^|]*) \|$/))
      .filter((m) => m !== null);
    const documented = Object.fromEntries(
      rows
        .filter(([, folder]) => folder !== 'data')
        .map(([, folder, may]) => [folder, may.trim() === 'nothing' ? [] : may.split(',').map((s) => s.trim())]),
    );
    expect(documented).toEqual(LIB_LAYERS);
    const folders = fs
      .readdirSync(path.join(ROOT, 'lib'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'data')
      .map((d) => d.name);
    expect(folders.sort()).toEqual(Object.keys(LIB_LAYERS).sort());
  });

  it('the real files pass', async () => {
    for (const file of ['lib/reference/units.ts', 'lib/prices/served-price.ts', 'lib/mcp/ranges.ts']) {
      expect(await broken(file, read(file)), file).toEqual([]);
    }
  });

  it('an upward import fails lint, in either spelling of the path', async () => {
    const units = read('lib/reference/units.ts');
    expect(await broken('lib/reference/units.ts', `import { getSpot } from '../prices/spot';\nvoid getSpot;\n${units}`)).toContainEqual(
      expect.stringMatching(/^import\/no-restricted-paths: .*lib\/reference may import only lib\/core, lib\/data/),
    );
    const clock = read('lib/calendar/clock.ts');
    expect(
      await broken('lib/calendar/clock.ts', `import { servedPrice } from '@/lib/prices/served-price';\nvoid servedPrice;\n${clock}`),
    ).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: /));
    // The core may not reach the web layer: the error type lives in lib/core for that reason.
    const history = read('lib/series/history.ts');
    expect(await broken('lib/series/history.ts', `import { errorBody } from '../http/errors';\nvoid errorBody;\n${history}`)).toContainEqual(
      expect.stringMatching(/^import\/no-restricted-paths: .*lib\/series may import only/),
    );
  });

  it('lib/ importing from the widgets or the app fails lint', async () => {
    const units = read('lib/reference/units.ts');
    expect(await broken('lib/reference/units.ts', `import { WIDGETS } from '../../widgets/kinds';\nvoid WIDGETS;\n${units}`)).toContainEqual(
      expect.stringMatching(/^import\/no-restricted-paths: .*lib\/ is the core/),
    );
  });

  it('a circle fails lint, inside one folder too', async () => {
    const rules = await plantedCircle(
      'lib/prices',
      "import { b } from './b';\nexport const a = () => b;\n",
      "import { a } from './a';\nexport const b = () => a;\n",
    );
    expect(rules).toEqual(['import/no-cycle', 'import/no-cycle']);
  });

  it('a circle above lib/ fails lint, its files importing lib/ too', async () => {
    // Above lib/ the rule's walk stops at lib/ (eslint.config.mjs): a circle among the site's own files is still found.
    const rules = await plantedCircle(
      'site',
      "import { getSpot } from '@/lib/prices/spot';\nimport { b } from './b';\nexport const a = () => [b, getSpot];\n",
      "import { UNITS } from '../../lib/reference/units';\nimport { a } from './a';\nexport const b = () => [a, UNITS];\n",
    );
    expect(rules).toEqual(['import/no-cycle', 'import/no-cycle']);
  });
});
