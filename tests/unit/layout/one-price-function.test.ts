import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// One function computes a price in a currency and unit (decisions §33): lib/prices/price-in.ts, which spot, price.txt,
// the metal value, history's conversion, the stream, alerts, the pages, the widgets and the sharing image call. A
// second copy of the arithmetic (USD per ounce × rate, per unit) is how two surfaces came to disagree by a digit; this
// finds one wherever it is written again.

const ROOT = path.resolve(__dirname, '../../..');
/** The unit list itself, and the one function. */
const ALLOWED = new Set(['lib/reference/units.ts', 'lib/prices/price-in.ts']);

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('one price function', () => {
  it('no module but lib/prices/price-in.ts prices a unit from the ounce (perUnit, GRAMS_PER_OZ, OZ_PER_KG)', () => {
    const copies = ['lib', 'site', 'widgets', 'app', 'pages']
      .flatMap((d) => sources(d))
      .filter((f) => !ALLOWED.has(f))
      .filter((f) => /\bperUnit\(|\bGRAMS_PER_OZ\b|\bOZ_PER_KG\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(copies).toEqual([]);
  });
});
