import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is the front door and docs/*.md hold the rest (configuration, deploying, operations, freshness and
// caching, development): what a reader follows there must hold. Every link between them lands on a file and a heading
// that exist, the Quick start is the two commands package.json runs, and every environment variable the service reads
// is in docs/configuration.md (and nothing there that nothing reads).

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchors = (file: string) => new Set([...read(file).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));

/** Every name of an environment variable read in the service's own code, its benchmark and its scripts. */
function variablesRead(): Set<string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mjs)$/.test(e.name) && !e.name.endsWith('.d.mts')) files.push(p);
    }
  };
  for (const dir of ['lib', 'app', 'server', 'bench', 'scripts', 'site', 'widgets', 'pages']) walk(dir);
  files.push('server.mjs', 'instrumentation.ts', 'next.config.ts');
  const names = new Set<string>();
  for (const file of files) {
    for (const m of read(file).matchAll(/process\.env\.([A-Z][A-Z0-9_]+)|\b(?:num|url)\('([A-Z][A-Z0-9_]+)'/g)) names.add(m[1] ?? m[2]);
  }
  // config.ts also reads names it passes around as strings (process.env[name]).
  for (const m of read('lib/core/config.ts').matchAll(/'([A-Z][A-Z0-9]*_[A-Z0-9_]+)'/g)) names.add(m[1]);
  // The platform's and the toolchain's own, which an operator does not set for this service; and a docs page's
  // sample code (the receiver's own secret).
  for (const own of ['NODE_ENV', 'NEXT_RUNTIME', 'PATH', 'TMPDIR', 'SITE_BUILD', 'TYPECHECKED', 'ALERT_SECRET']) names.delete(own);
  for (const n of names) if (n.startsWith('__NEXT') || n.startsWith('npm_')) names.delete(n);
  return names;
}

describe('README and docs/', () => {
  it('every relative link lands on a file that exists, and on a heading of it when it names one', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:|^\//.test(target)) continue;
        const [to, hash] = target.split('#');
        const dest = to ? path.normalize(path.join(path.dirname(file), to)) : file;
        if (!fs.existsSync(path.join(ROOT, dest))) broken.push(`${file}: ${target} (no ${dest})`);
        else if (hash && dest.endsWith('.md') && !anchors(dest).has(hash)) broken.push(`${file}: ${target} (no heading #${hash})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README is a front door: short, linking every file under docs/', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThan(12_000);
    for (const file of DOCS.filter((f) => f.startsWith('docs/'))) expect(readme, file).toContain(`](${file}`);
  });

  it('the Quick start is two commands, each an npm script package.json has: one serves, one tests', () => {
    const quick = read('README.md').split('## Quick start')[1].split('\n## ')[0];
    const block = quick.match(/```sh\n([\s\S]*?)```/)![1];
    const commands = block
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const scripts = JSON.parse(read('package.json')).scripts;
    expect(scripts.start).toBeTruthy();
    expect(scripts.test).toBeTruthy();
  });

  it('docs/configuration.md lists every environment variable the service reads, and only those', () => {
    const table = read('docs/configuration.md');
    const documented = new Set([...table.matchAll(/^\|([^|]+)\|/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((n) => n[1])));
    const read_ = variablesRead();
    expect([...read_].filter((n) => !documented.has(n)).sort(), 'read but not documented').toEqual([]);
    expect([...documented].filter((n) => !read_.has(n)).sort(), 'documented but read nowhere').toEqual([]);
  });
});
