// Part of `npm test`: the Debian packages the tests drive, installed when missing, so the test
// command works on a fresh machine. Chromium's headless shell runs the browser tests (CHROMIUM_PATH
// names another Chromium instead), the whole Chromium the back/forward cache test; redis-server
// backs the shared store tests (KV through the bridge, Redis over TCP); nginx runs docs/nginx.conf in
// front of two instances. Installs only as root with apt-get; otherwise says what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

const missing = [];
// The package is named by the binary asked for: a CHROMIUM_PATH naming a headless shell elsewhere still gets the shell.
if (!fs.existsSync(chromium)) missing.push(path.basename(chromium) === 'chromium-headless-shell' ? 'chromium-headless-shell' : 'chromium');
// The whole Chromium too, for the one test of the back/forward cache, which the headless shell does not have.
if (!process.env.CHROMIUM_PATH && !fs.existsSync('/usr/bin/chromium')) missing.push('chromium');
if (!has('redis-server')) missing.push('redis-server');
// nginx lives in /usr/sbin, which a user's PATH may leave out.
if (!has('nginx') && !fs.existsSync('/usr/sbin/nginx')) missing.push('nginx');

if (missing.length > 0) {
  const root = process.getuid?.() === 0;
  if (!root || !has('apt-get')) {
    console.error(`Tests need: ${missing.join(', ')}. Install them (Debian: apt-get install ${missing.join(' ')}), or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
}
