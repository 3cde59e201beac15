// Bundles the browser scripts with esbuild, minified and content-hashed into public/w/ (cached for a
// year): the widgets' (widgets/scripts/*.ts, one classic script each) and the site pages' own
// (site/scripts/landing.ts and builder.ts, ES modules, so the landing's chart library is a chunk loaded
// only when the chart is about to be seen); plus public/embed.js at its stable address. Writes
// widgets/manifest.json, which the pages read to reference the hashed files.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'public', 'w');
const entries = ['price', 'chart', 'converter'].filter((n) => fs.existsSync(path.join(root, 'widgets/scripts', `${n}.ts`)));

fs.rmSync(outdir, { recursive: true, force: true });
const common = { bundle: true, minify: true, format: 'iife', target: ['es2020'], legalComments: 'none', logLevel: 'warning' };

const result = await esbuild.build({
  ...common,
  entryPoints: Object.fromEntries(entries.map((n) => [n, path.join(root, 'widgets/scripts', `${n}.ts`)])),
  outdir,
  entryNames: '[name].[hash]',
  metafile: true,
});

const siteEntries = ['landing', 'builder'];
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

const manifest = {};
for (const [file, meta] of [...Object.entries(result.metafile.outputs), ...Object.entries(site.metafile.outputs)]) {
  const name = meta.entryPoint && path.basename(meta.entryPoint, '.ts');
  // Entry scripts only: chunks are loaded by the scripts that import them.
  if (!name || ![...entries, ...siteEntries].includes(name)) continue;
  manifest[name] = '/' + path.relative(path.join(root, 'public'), path.join(root, file)).split(path.sep).join('/');
}
fs.writeFileSync(path.join(root, 'widgets', 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

await esbuild.build({ ...common, entryPoints: [path.join(root, 'widgets/embed.ts')], outfile: path.join(root, 'public', 'embed.js') });
console.log('widget scripts:', manifest);
