// Bundles the widgets' browser scripts (widgets/scripts/*.ts) and the embed script with esbuild:
// minified, content-hashed into public/w/ (cached for a year), plus public/embed.js at its stable
// address. Writes widgets/manifest.json, which the widget pages read to reference the hashed files.
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

const manifest = {};
for (const [file, meta] of Object.entries(result.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  const name = path.basename(meta.entryPoint, '.ts');
  manifest[name] = '/' + path.relative(path.join(root, 'public'), path.join(root, file)).split(path.sep).join('/');
}
fs.writeFileSync(path.join(root, 'widgets', 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

await esbuild.build({ ...common, entryPoints: [path.join(root, 'widgets/embed.ts')], outfile: path.join(root, 'public', 'embed.js') });
console.log('widget scripts:', manifest);
