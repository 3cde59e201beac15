import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';

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
  return async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    delete process.env[RUN_DIR];
    await removeRunDir(tmp);
  };
}

/**
 * Removes the run's folder. A worker's Chromium (tests/support/browser.ts) ends when its worker does, and can still be
 * writing and removing its profile here while this runs: a removal that meets an entry changing under it returns
 * without an error and leaves the rest (measured: the folder whole, stores and all, after a busy run). So it tries
 * again until the folder is gone, for up to 10 s, and names the folder if it is still there.
 */
async function removeRunDir(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (!fs.existsSync(dir)) return;
    await pause(100);
  }
  console.error(`The test run's temporary folder could not be removed: ${dir}`);
}
