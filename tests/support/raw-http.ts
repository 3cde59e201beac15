import net from 'node:net';

// HTTP/1.1 over a bare socket, for requests no client library sends as written: lower-case and
// unknown methods, CONNECT, absolute-form targets, lying Content-Length headers, uploads abandoned
// mid-body.

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection on its own (seen only with `waitForClose`). */
  closed: boolean;
  /** Interim lines such as "HTTP/1.1 100 Continue" seen before the final response. */
  interim: string[];
}

export interface RawRequest {
  method: string;
  target: string;
  headers?: Record<string, string>;
  /** Bytes written after the head; Content-Length is the caller's to set (and may lie). */
  body?: string;
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** After the response, wait up to this long (ms) for the server to close the connection. */
  waitForClose?: number;
}

/** Sends one request on a keep-alive connection and reads one response. */
export function rawRequest(url: string, req: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const head = [
    `${req.method} ${req.target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    let closed = false;
    let done = false;
    const timer = setTimeout(
      () => finish(new Error(`no complete response to ${req.method} ${req.target} within ${req.timeoutMs ?? 10_000} ms`)),
      req.timeoutMs ?? 10_000,
    );
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      const parsed = parse(data, req.method === 'HEAD');
      if (!parsed)
        return reject(new Error(`incomplete response to ${req.method} ${req.target}: ${JSON.stringify(data.toString('latin1').slice(0, 300))}`));
      resolve({ ...parsed, closed });
    };
    socket.on('error', (err) => (data.length ? finish() : finish(err)));
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (parse(data, req.method === 'HEAD')) {
        if (req.waitForClose) setTimeout(() => finish(), req.waitForClose);
        else finish();
      }
    });
    socket.on('end', () => {
      closed = true;
      finish();
    });
    socket.write(`${head.join('\r\n')}\r\n\r\n${req.body ?? ''}`, 'latin1');
  });
}

/**
 * Sends a request head and the first bytes of its body (Content-Length is the caller's, announcing
 * more), waits `holdMs`, then closes the connection without the rest: an upload abandoned mid-body.
 * Resolves with whatever the server wrote meanwhile (usually nothing).
 */
export function abandonedUpload(
  url: string,
  req: { method: string; target: string; headers: Record<string, string>; body: string; holdMs: number },
): Promise<string> {
  const { hostname, port } = new URL(url);
  const head = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${hostname}:${port}`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    // A server that answers without reading may reset the connection: what it wrote is what counts.
    socket.on('error', () => resolve(data));
    socket.write(`${head.join('\r\n')}\r\n\r\n${req.body}`, 'latin1', () => {
      setTimeout(() => {
        socket.destroy();
        resolve(data);
      }, req.holdMs);
    });
  });
}

function parse(data: Buffer, isHead: boolean): Omit<RawResponse, 'closed'> | null {
  const interim: string[] = [];
  let text = data.toString('latin1');
  // 1xx responses come first, each a head of their own.
  while (/^HTTP\/1\.1 1\d\d /.test(text)) {
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return null;
    interim.push(text.slice(0, text.indexOf('\r\n')));
    text = text.slice(end + 4);
  }
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  }
  const rest = Buffer.from(text.slice(end + 4), 'latin1');
  if (isHead || status === 204 || status === 304) return { status, headers, body: '', interim };
  if (headers['transfer-encoding']?.includes('chunked')) {
    const chunks: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size + 2) return null;
      chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    return { status, headers, body: Buffer.concat(chunks).toString('utf8'), interim };
  }
  const length = Number(headers['content-length'] ?? 0);
  if (rest.length < length) return null;
  return { status, headers, body: rest.subarray(0, length).toString('utf8'), interim };
}
