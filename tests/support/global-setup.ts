import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The run's temporary folder, once the first project's setup has made it. */
const RUN_DIR = 'GOLDAPI_TEST_RUN_DIR';

// Integration tests run against the production build that `npm test` makes first.
export default function setup() {
  const dist = process.env.NEXT_DIST_DIR || '.next';
  if (!fs.existsSync(path.resolve(__dirname, '../..', dist, 'BUILD_ID'))) {
    throw new Error(`No build in ${dist}/: run \`npm test\` (it builds first) or \`npm run build\`.`);
  }
  // Every temporary folder of the run (each app's store, imported files, Chromium's profiles) is made in one folder,
  // removed when the run ends, so runs leave nothing behind. The test processes and what they start inherit TMPDIR.
  // Each project that starts apps names this setup, and the runner calls it once per project in one process: the
  // first call makes the folder and removes it at the end, the others find it made (a second folder would be made
  // inside the first, and the first's removal would leave TMPDIR naming a folder that no longer exists).
  if (process.env[RUN_DIR]) return;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-test-run-'));
  const before = process.env.TMPDIR;
  process.env[RUN_DIR] = process.env.TMPDIR = tmp;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    delete process.env[RUN_DIR];
    fs.rmSync(tmp, { recursive: true, force: true });
  };
}
