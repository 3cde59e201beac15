// widgets/views/scripts.json is written by `npm run build` (scripts/build-views.mjs): each MCP Apps
// view's script, bundled and minified, as the text its document carries inline. This declaration
// types the import, so the type check needs no build.
declare const scripts: Record<'price' | 'chart', string>;
export default scripts;
