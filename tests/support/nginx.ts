import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, ROOT } from './app';

// Debian's nginx (scripts/test-deps.mjs installs it) running the documented configuration, docs/nginx.conf, as
// written: the only changes are the instances' addresses in its upstream and the port it listens on, each checked to
// have been made. The rest of what nginx needs to run as an ordinary process (no daemon, its pid, logs and
// temporary files in a folder of its own) is a small main file that includes the documented one.

export const DOCUMENTED_CONF = path.join(ROOT, 'docs/nginx.conf');

export class Nginx {
  output = '';
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {}

  /** nginx on a free port of 127.0.0.1 in front of `instances` (`host:port` each). */
  static async start(instances: string[]): Promise<Nginx> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-'));
    // nginx's workers may run as another user (www-data): they must reach the temporary folders.
    fs.chmodSync(dir, 0o755);
    const port = await freePort();
    fs.writeFileSync(path.join(dir, 'goldapi.conf'), documentedFor(instances, port));
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${path.join(dir, t)};`).join('\n  ');
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `daemon off;
worker_processes 2;
pid ${path.join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  ${temp}
  include ${path.join(dir, 'goldapi.conf')};
}
`,
    );
    const bin = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
    const child = spawn(bin, ['-e', 'stderr', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const nginx = new Nginx(child, dir, `http://127.0.0.1:${port}`);
    child.stdout!.on('data', (d) => (nginx.output += d));
    child.stderr!.on('data', (d) => (nginx.output += d));
    const spawned = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (err) => resolve(err));
    });
    if (spawned) throw new Error(`cannot start nginx (${spawned.message}): install it with \`apt-get install -y nginx\``);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${nginx.output}`);
      // Ready once it answers at all (whatever the instances say).
      if (
        await fetch(`${nginx.url}/api/health`).then(
          () => true,
          () => false,
        )
      )
        return nginx;
      await new Promise((r) => setTimeout(r, 50));
    }
    await nginx.stop();
    throw new Error(`nginx not answering after 10 s: ${nginx.output}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      // QUIT: a graceful stop of nginx, its workers included.
      this.child.kill('SIGQUIT');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The documented configuration with `instances` as its upstream servers and `port` on 127.0.0.1 as its listen. */
function documentedFor(instances: string[], port: number): string {
  const text = fs.readFileSync(DOCUMENTED_CONF, 'utf8');
  const servers = [...text.matchAll(/^( *)server \S+:\d+( [^;\n]*)?;\n/gm)];
  const listens = text.match(/^ *listen 80;$/gm) ?? [];
  if (servers.length === 0 || listens.length !== 1)
    throw new Error(`${DOCUMENTED_CONF}: no upstream servers or not one "listen 80;" to put the test's in`);
  // The upstream's lines become one per instance, each with the documented parameters.
  const [first] = servers;
  const lines = instances.map((where) => `${first[1]}server ${where}${first[2] ?? ''};\n`).join('');
  let out = text.slice(0, first.index) + lines + text.slice(servers.at(-1)!.index! + servers.at(-1)![0].length);
  out = out.replace(/^( *)listen 80;$/m, `$1listen 127.0.0.1:${port};`);
  return out;
}
