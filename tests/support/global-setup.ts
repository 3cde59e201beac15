import fs from 'node:fs';
import path from 'node:path';

// Integration tests run against the production build that `npm test` makes first.
export default function setup() {
  const dist = process.env.NEXT_DIST_DIR || '.next';
  if (!fs.existsSync(path.resolve(__dirname, '../..', dist, 'BUILD_ID'))) {
    throw new Error(`No build in ${dist}/: run \`npm test\` (it builds first) or \`npm run build\`.`);
  }
}
