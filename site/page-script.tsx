import manifest from '@/widgets/manifest.json';

/**
 * A site page's own script (site/scripts/NAME.ts, content-hashed by scripts/build-widgets.mjs): an ES
 * module, so it runs after the page is parsed and loads its chunks (the landing's chart library) itself.
 */
export function PageScript({ name }: { name: 'landing' | 'builder' | 'price-page' | 'price-chart' }) {
  const src = (manifest as Record<string, string>)[name];
  if (!src) throw new Error(`No built script for ${name}: run node scripts/build-widgets.mjs`);
  // eslint-disable-next-line @next/next/no-sync-scripts -- module scripts are deferred, never blocking
  return <script src={src} type="module" />;
}
