// widgets/manifest.json is written by `npm run build` (scripts/build-widgets.mjs): each widget
// script's name and its content-hashed address under /w/. This declaration types the import, so
// the type check needs no build.
declare const manifest: Record<string, string>;
export default manifest;
