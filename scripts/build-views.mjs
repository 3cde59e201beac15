// Bundles the MCP Apps views' scripts (widgets/views/price.ts and chart.ts, decisions §22) with esbuild,
// minified, into widgets/views/scripts.json: the text each view's document carries inline
// (widgets/views/documents.ts), since a view loads nothing from any origin.
//
// The ext-apps App class is bundled as the package ships it; its three peers are not. With the MCP
// SDK's client (the JSON-RPC Protocol it extends, with every protocol era, tasks and validation), its
// core schemas and zod, the App bundles to about 147 KB gzipped (92 KB without zod's locales), ten
// times the price view's budget; the views' build resolves the peers to the small stand-ins in
// widgets/views/lean/ that do what the App asks of them.
// The host's side of the wire (AppBridge) keeps the real ones; the browser tests run the one against
// the other. The App's module builds a schema of every message, each with its description for JSON
// Schema generation: against the stand-ins those words do nothing, and they are a third of the
// module gzipped, so the build leaves them out (`.describe("…")` calls, nothing else).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const views = ['price', 'chart'];
const lean = path.join(root, 'widgets', 'views', 'lean');
const STAND_INS = {
  '@modelcontextprotocol/client': path.join(lean, 'protocol.ts'),
  '@modelcontextprotocol/core': path.join(lean, 'core.ts'),
  'zod/v4': path.join(lean, 'zod.ts'),
};

/** Resolves the App's peers to their stand-ins, and refuses any other import of them (a new one would arrive whole, unnoticed). */
const standIns = {
  name: 'view-peers',
  setup(build) {
    build.onResolve({ filter: /^(@modelcontextprotocol\/(client|core)|zod)(\/.*)?$/ }, (args) => {
      const to = STAND_INS[args.path];
      if (to) return { path: to };
      return { errors: [{ text: `${args.path} has no stand-in for the views (scripts/build-views.mjs): it would add the whole package` }] };
    });
  },
};

/** `schema.describe("words")` → `schema`, wherever the words are one string; the source is otherwise left as it is. */
function withoutDescriptions(source) {
  const file = ts.createSourceFile('app.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const cuts = [];
  const visit = (node) => {
    const [words] = ts.isCallExpression(node) ? node.arguments : [];
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'describe' &&
      node.arguments.length === 1 &&
      (ts.isStringLiteral(words) || ts.isNoSubstitutionTemplateLiteral(words))
    ) {
      cuts.push([node.expression.expression.getEnd(), node.getEnd()]);
      return visit(node.expression.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return cuts.sort((a, b) => b[0] - a[0]).reduce((text, [from, to]) => text.slice(0, from) + text.slice(to), source);
}

/** The App's module without its schemas' descriptions. */
const appWords = {
  name: 'app-descriptions',
  setup(build) {
    build.onLoad({ filter: /[\\/]ext-apps[\\/]dist[\\/]src[\\/]app\.js$/ }, async (args) => ({
      contents: withoutDescriptions(await fs.promises.readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};

const result = await esbuild.build({
  entryPoints: Object.fromEntries(views.map((n) => [n, path.join(root, 'widgets', 'views', `${n}.ts`)])),
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2022'],
  legalComments: 'none',
  logLevel: 'warning',
  outdir: path.join(root, 'widgets', 'views', 'out'),
  write: false,
  plugins: [standIns, appWords],
});

const scripts = {};
for (const file of result.outputFiles) {
  // Inline in a <script>, the text must not close the element or open a comment in it.
  scripts[path.basename(file.path, '.js')] = file.text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}
fs.writeFileSync(path.join(root, 'widgets', 'views', 'scripts.json'), JSON.stringify(scripts) + '\n');
const gz = (s) => (zlib.gzipSync(s).length / 1000).toFixed(1);
console.log('view scripts:', Object.fromEntries(Object.entries(scripts).map(([n, s]) => [n, `${gz(s)} KB gzipped`])));
