import js from '@eslint/js';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

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
    },
  },
  {
    // A test reads JSON bodies whose shape it then asserts (and tests/support/app.ts checks every
    // REST body against the OpenAPI document), so `any` is the honest type there.
    files: ['tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    ignores: ['.next*/**', 'public/w/**', 'public/embed.js', 'coverage/**', 'test-results/**'],
  },
];

export default config;
