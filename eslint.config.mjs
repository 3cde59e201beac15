import js from '@eslint/js';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// The layout of lib/ (lib/README.md says the same in words): each folder and the lib/ folders it may
// import, besides itself and the bundled data in lib/data/. Imports run one way, from the surfaces
// (http, mcp, docs; app/ above them) down to reference/ and core/. import/no-restricted-paths turns this
// map into zones; import/no-cycle refuses any circle, inside a folder too.
export const LIB_LAYERS = {
  core: [],
  reference: ['core'],
  calendar: ['core'],
  store: ['core'],
  schemas: ['reference', 'core'],
  sources: ['store', 'schemas', 'reference', 'calendar', 'core'],
  prices: ['sources', 'store', 'schemas', 'reference', 'calendar', 'core'],
  series: ['prices', 'sources', 'store', 'schemas', 'reference', 'calendar', 'core'],
  alerts: ['prices', 'sources', 'store', 'schemas', 'reference', 'calendar', 'core'],
  reserves: ['sources', 'schemas', 'reference', 'core'],
  status: ['alerts', 'series', 'prices', 'sources', 'store', 'schemas', 'reference', 'calendar', 'core'],
  http: ['status', 'alerts', 'series', 'prices', 'reserves', 'sources', 'store', 'schemas', 'reference', 'calendar', 'core'],
  mcp: ['status', 'series', 'prices', 'reserves', 'sources', 'store', 'schemas', 'reference', 'calendar', 'core'],
  docs: ['http', 'schemas', 'reference', 'core'],
};

/** The folders outside lib/ that use it; lib/ imports none of them. */
const ABOVE_LIB = ['app', 'pages', 'site', 'widgets', 'server', 'scripts', 'tests', 'bench'];

const layerZones = [
  ...Object.entries(LIB_LAYERS).map(([folder, may]) => ({
    target: `./lib/${folder}`,
    from: './lib',
    except: [folder, ...may, 'data'].map((f) => `./${f}`),
    message: `lib/${folder} may import only ${[...may, 'data'].map((f) => `lib/${f}`).join(', ')} (lib/README.md).`,
  })),
  { target: './lib', from: ABOVE_LIB.map((f) => `./${f}`), message: 'lib/ is the core under app/, widgets/ and the site: it imports none of them.' },
];

// ESLint's recommended rules, Next.js's (React, hooks, accessibility, Core Web Vitals) and
// typescript-eslint's recommended set. Type errors are tsc's job (`npm run typecheck`) and layout is
// Prettier's (`npm run format`), so this set has neither type-aware nor style rules.
const config = [
  js.configs.recommended,
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      eqeqeq: ['error', 'smart'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      // The site navigates with plain links: every page is server-rendered and works without the router.
      '@next/next/no-html-link-for-pages': 'off',
      'import/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    // Circles are looked for in the service's code; tests and benchmarks are leaves nothing imports. Without the
    // rule's precomputed components (disableScc), which map every package's types too, ignoreExternal keeps the walk in
    // our own files: the rule took 24 of eslint's 36 s on a fresh checkout, 6 s then, and finds the same circles.
    files: ['lib/**', 'app/**', 'pages/**', 'site/**', 'widgets/**', 'server/**', 'scripts/**', '*.ts', '*.mjs'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true, disableScc: true }] },
  },
  {
    // Above lib/, the walk stops at lib/: a circle cannot pass through it, since lib/ imports nothing above it (the
    // zones above). Walking all of lib/ again from every page, route and widget had grown to 10 of eslint's 24 s.
    files: ['app/**', 'pages/**', 'site/**', 'widgets/**', 'server/**', 'scripts/**', '*.ts', '*.mjs'],
    settings: { 'import/ignore': [`^${import.meta.dirname}/lib/`] },
  },
  {
    // A test reads JSON bodies whose shape it then asserts (and tests/support/app.ts checks every
    // REST body against the OpenAPI document), so `any` is the honest type there.
    files: ['tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // lint-probe-* folders: what tests/unit/layout/lint-layers.test.ts plants for a second to see lint refuse it. The
    // project's lint may run while the tests do (.ci/run), and must not read them.
    ignores: ['.next*/**', 'public/w/**', 'public/embed.js', 'public/sw.js', 'coverage/**', 'test-results/**', '**/lint-probe-*/**'],
  },
];

export default config;
