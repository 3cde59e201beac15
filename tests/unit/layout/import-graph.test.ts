import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No circle in the import graph, types included (decisions §33). Lint's cycle rule (import/no-cycle) skips type-only
// imports by design, and a circle of types is still two modules that cannot be understood, moved or tested apart
// (lib/prices/observers.ts and served-price.ts were one, through the `Served` type). This walks every import and
// export-from of the project's own TypeScript, `import type` included, as the compiler's pre-processor reads them.

const ROOT = path.resolve(__dirname, '../../..');
const FOLDERS = ['lib', 'app', 'site', 'widgets', 'pages', 'server'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'];

function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('lint-probe-')) walk(p);
      } else if (/\.(ts|tsx|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.mts')) files.push(p);
    }
  };
  for (const f of FOLDERS) walk(path.join(ROOT, f));
  return files;
}

/** The project file an import names, or null for a package (or a file outside the walked folders). */
function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  // A `.d.mts` beside a `.mjs` types it: the import is of the `.mjs`.
  const plain = base.replace(/\.(mjs|js)$/, '');
  for (const candidate of [base, ...EXTENSIONS.map((e) => plain + e)]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile())
      return candidate.endsWith('.d.mts') ? candidate.replace(/\.d\.mts$/, '.mjs') : candidate;
  }
  return null;
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.map((f) => path.relative(ROOT, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources()) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    graph.set(file, [...new Set(importedFiles.map((i) => resolve(file, i.fileName)).filter((f): f is string => f !== null))]);
  }
  return graph;
}

describe('the import graph', () => {
  it('has no circle, type-only imports included', () => {
    expect(circles(importGraph())).toEqual([]);
  });

  it('would see a circle made only of type imports', () => {
    const a = path.join(ROOT, 'lib/a.ts');
    const b = path.join(ROOT, 'lib/b.ts');
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['lib/a.ts', 'lib/b.ts']]);
    // And reads `import type` as an import, as the compiler's pre-processor does.
    const { importedFiles } = ts.preProcessFile("import type { Served } from './served-price';\nexport type { X } from './x';", true, true);
    expect(importedFiles.map((i) => i.fileName)).toEqual(['./served-price', './x']);
  });
});
