// Bundles the browser scripts with esbuild, minified and content-hashed into public/w/ (cached for a
// year): the widgets' (widgets/scripts/*.ts, one file each, plus the chart's library chunk) and the
// site pages' own (site/scripts/landing.ts and builder.ts, ES modules, so the landing's chart library
// is a chunk loaded only when the chart is about to be seen; price-chart.ts, the price pages' chart, likewise); plus public/embed.js at its stable
// address, and public/sw.js, the service worker, at the root. Writes widgets/manifest.json, which the pages read to reference the hashed files.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'public', 'w');
const entries = ['price', 'chart', 'converter'].filter((n) => fs.existsSync(path.join(root, 'widgets/scripts', `${n}.ts`)));

fs.rmSync(outdir, { recursive: true, force: true });
const common = { bundle: true, minify: true, format: 'iife', target: ['es2020'], legalComments: 'none', logLevel: 'warning' };

// The chart widget's library is a chunk its script loads when a reader reaches for the chart, so the
// chart is an ES module built apart (sharing no chunk with the other widgets, each one file).
const modules = ['chart'];
const widget = (names, options = {}) =>
  esbuild.build({
    ...common,
    ...options,
    entryPoints: Object.fromEntries(names.map((n) => [n, path.join(root, 'widgets/scripts', `${n}.ts`)])),
    outdir,
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    metafile: true,
  });
const result = await widget(entries.filter((n) => !modules.includes(n)));
const chart = await widget(
  entries.filter((n) => modules.includes(n)),
  { format: 'esm', splitting: true },
);

const siteEntries = ['landing', 'builder', 'price-page'];
const site = await esbuild.build({
  ...common,
  format: 'esm',
  splitting: true,
  entryPoints: Object.fromEntries(siteEntries.map((n) => [n, path.join(root, 'site/scripts', `${n}.ts`)])),
  outdir,
  entryNames: '[name].[hash]',
  chunkNames: 'chunk.[hash]',
  metafile: true,
});

// The price pages' chart: a tiny entry (site/scripts/price-chart.ts) that imports the chart
// (price-chart-view.ts) when it is wanted, and the chart its library (widgets/scripts/line-chart.ts, a chunk) when
// a reader reaches for it. The chart is built first and the entry is told its hashed name: with code splitting
// across the two, esbuild gave the entry an empty shared chunk to fetch first.
const priceChartView = await esbuild.build({
  ...common,
  format: 'esm',
  splitting: true,
  entryPoints: { 'price-chart-view': path.join(root, 'site/scripts/price-chart-view.ts') },
  outdir,
  entryNames: '[name].[hash]',
  chunkNames: 'chunk.[hash]',
  metafile: true,
});
const viewFile = Object.keys(priceChartView.metafile.outputs).find((f) => path.basename(f).startsWith('price-chart-view.') && f.endsWith('.js'));
const priceChart = await esbuild.build({
  ...common,
  format: 'esm',
  entryPoints: { 'price-chart': path.join(root, 'site/scripts/price-chart.ts') },
  define: { PRICE_CHART_VIEW: JSON.stringify(`./${path.basename(viewFile)}`) },
  external: ['./price-chart-view.*'],
  outdir,
  entryNames: '[name].[hash]',
  metafile: true,
});

// esbuild may leave an empty shared chunk (what the two sides share minifies to nothing) that each side still
// imports first: one more request in the chain for no code. Such imports are dropped, and the empty files.
for (const file of fs.readdirSync(outdir).filter((f) => f.startsWith('chunk.') && fs.statSync(path.join(outdir, f)).size === 0)) {
  for (const other of fs.readdirSync(outdir).filter((f) => f.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(outdir, other), 'utf8');
    const without = text.replaceAll(`import"./${file}";`, '');
    if (without !== text) fs.writeFileSync(path.join(outdir, other), without);
  }
  fs.rmSync(path.join(outdir, file));
}

const manifest = {};
for (const [file, meta] of [result, chart, site, priceChart].flatMap((b) => Object.entries(b.metafile.outputs))) {
  const name = meta.entryPoint && path.basename(meta.entryPoint, '.ts');
  // Entry scripts only: chunks are loaded by the scripts that import them.
  if (!name || ![...entries, ...siteEntries, 'price-chart'].includes(name)) continue;
  manifest[name] = '/' + path.relative(path.join(root, 'public'), path.join(root, file)).split(path.sep).join('/');
}
fs.writeFileSync(path.join(root, 'widgets', 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

await esbuild.build({ ...common, entryPoints: [path.join(root, 'widgets/embed.ts')], outfile: path.join(root, 'public', 'embed.js') });
// The site's service worker (the price alerts' notifications) at /sw.js, so its scope is the whole site.
await esbuild.build({ ...common, entryPoints: [path.join(root, 'site/scripts/sw.ts')], outfile: path.join(root, 'public', 'sw.js') });
console.log('widget scripts:', manifest);

// The MCP Apps views, built from the widgets' code into self-contained documents (decisions §22).
await import('./build-views.mjs');
