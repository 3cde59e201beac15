import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A publisher's site on another origin: serves whatever pages a test gives it.
export class HostSite {
  private pages = new Map<string, string>();
  private server!: http.Server;
  url = '';

  static async start(): Promise<HostSite> {
    const host = new HostSite();
    host.server = http.createServer((req, res) => {
      const body = host.pages.get(req.url ?? '/');
      if (req.url === '/favicon.ico') return res.writeHead(204).end();
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body ?? 'not found');
    });
    await new Promise<void>((r) => host.server.listen(0, '127.0.0.1', r));
    host.url = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
    return host;
  }

  /** Serves `body` (wrapped in a minimal document) at a new path; returns its URL. */
  page(body: string): string {
    const path = `/p${this.pages.size}`;
    this.pages.set(path, `<!doctype html><html><head><meta charset="utf-8"><title>Publisher</title></head><body>${body}</body></html>`);
    return this.url + path;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
