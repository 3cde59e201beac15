import { isSchema } from './zod';

// Stands in for @modelcontextprotocol/client in the views' build: the JSON-RPC framing the ext-apps
// App class extends (`Protocol`), over the App's own postMessage transport. Requests get ids and
// wait for their answers (60 s at most, as the SDK's default), requests from the host reach the
// handler registered for their method (else -32601), notifications reach theirs. The SDK's client
// adds protocol eras, tasks, progress and validation against its schemas, and with zod is most of a
// view's weight many times over (scripts/build-views.mjs); the host's side (AppBridge) keeps all of
// it, and a view checks what it reads itself.

type Id = string | number;
interface Message {
  jsonrpc: '2.0';
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
interface Transport {
  start(): Promise<void>;
  send(message: Message): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}
type Handler = (message: Message, context: object) => unknown;
type Callback = (...args: never[]) => unknown;
interface Options {
  timeout?: number;
}

const TIMEOUT_MS = 60_000;

/** An error answer, as the SDK's ProtocolError carries it. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export class Protocol {
  private link?: Transport;
  private nextId = 0;
  private readonly requestHandlers = new Map<string, Handler>();
  private readonly notificationHandlers = new Map<string, Handler>();
  private readonly waiting = new Map<Id, { settle: (m: Message | Error) => void; timer: ReturnType<typeof setTimeout> }>();
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(_options?: unknown) {
    this.setRequestHandler('ping', () => ({}));
  }

  get transport(): Transport | undefined {
    return this.link;
  }

  async connect(transport: Transport): Promise<void> {
    this.link = transport;
    transport.onmessage = (m) => this.receive(m);
    transport.onerror = (e) => this.fail(e);
    transport.onclose = () => {
      this.link = undefined;
      for (const w of this.waiting.values()) w.settle(new Error('Connection closed'));
      this.onclose?.();
    };
    await transport.start();
  }

  async close(): Promise<void> {
    await this.link?.close();
  }

  /** `request(message, resultSchema?, options?)` or `request(message, options?)`: the result, or the error answered. */
  request(message: { method: string; params?: Record<string, unknown> }, schemaOrOptions?: unknown, maybeOptions?: Options): Promise<unknown> {
    const options = (isSchema(schemaOrOptions) ? maybeOptions : (schemaOrOptions as Options | undefined)) ?? {};
    const link = this.link;
    if (!link) return Promise.reject(new Error('Not connected'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timeout = options.timeout ?? TIMEOUT_MS;
      const settle = (m: Message | Error) => {
        clearTimeout(this.waiting.get(id)?.timer);
        this.waiting.delete(id);
        if (m instanceof Error) reject(m);
        else if (m.error) reject(new RpcError(m.error.code, m.error.message, m.error.data));
        else resolve(m.result);
      };
      const timer = setTimeout(() => settle(new RpcError(-32001, `Request timed out after ${timeout} ms`)), timeout);
      this.waiting.set(id, { settle, timer });
      link.send({ jsonrpc: '2.0', id, ...message }).catch(settle);
    });
  }

  async notification(message: { method: string; params?: Record<string, unknown> }): Promise<void> {
    if (!this.link) throw new Error('Not connected');
    await this.link.send({ jsonrpc: '2.0', ...message });
  }

  /** `(method, handler)` gets the whole request; `(method, schemas, handler)` its params, as the SDK's Protocol does. */
  setRequestHandler(method: string, schemasOrHandler: unknown, handler?: Callback): void {
    const h = handler as ((params: unknown, context: object) => unknown) | undefined;
    this.requestHandlers.set(method, h ? (m, context) => h(m.params ?? {}, context) : (schemasOrHandler as Handler));
  }

  setNotificationHandler(method: string, schemasOrHandler: unknown, handler?: Callback): void {
    const h = handler as ((params: unknown, message: Message) => unknown) | undefined;
    this.notificationHandlers.set(method, h ? (m) => h(m.params ?? {}, m) : (schemasOrHandler as Handler));
  }

  removeRequestHandler(method: string): void {
    this.requestHandlers.delete(method);
  }

  removeNotificationHandler(method: string): void {
    this.notificationHandlers.delete(method);
  }

  private receive(m: Message): void {
    if (m.method === undefined) return this.waiting.get(m.id!)?.settle(m);
    if (m.id === undefined) {
      const handler = this.notificationHandlers.get(m.method);
      if (handler)
        Promise.resolve(m)
          .then((n) => handler(n, {}))
          .catch((e: unknown) => this.fail(e));
      return;
    }
    const id = m.id;
    const handler = this.requestHandlers.get(m.method);
    Promise.resolve(m)
      .then((r) => {
        if (!handler) throw new RpcError(-32601, `Method not found: ${r.method}`);
        return handler(r, { mcpReq: { id } });
      })
      .then(
        (result) => this.link?.send({ jsonrpc: '2.0', id, result: result ?? {} }),
        (e: unknown) => {
          const { code = -32603, message = String(e) } = e as Partial<RpcError>;
          return this.link?.send({ jsonrpc: '2.0', id, error: { code, message } });
        },
      )
      .catch((e: unknown) => this.fail(e));
  }

  /** A handler that threw, or a transport that failed: the view's own error, said where a developer looks. */
  private fail(e: unknown): void {
    const error = e instanceof Error ? e : new Error(String(e));
    if (this.onerror) this.onerror(error);
    else console.error('[view]', error);
  }
}
