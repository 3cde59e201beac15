// Reads a text/event-stream body block by block, as it arrives, noting when each block came: what the
// stream tests assert on below EventSource (comments, the `retry:` line, the end of a stream).

export interface SseBlock {
  /** `event:` (EventSource's default is `message`). */
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
  /** The text of a comment line (`: text`). */
  comment?: string;
  /** When the block was read (ms). */
  at: number;
}

/**
 * Cuts text arriving in chunks into the stream's blocks (each ends with a blank line) and hands each
 * complete one to `onBlock`; a block split across chunks waits for its end.
 */
export function blockSplitter(onBlock: (block: string) => void): (chunk: string) => void {
  let text = '';
  return (chunk) => {
    text += chunk;
    let cut: number;
    while ((cut = text.indexOf('\n\n')) !== -1) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      onBlock(block);
    }
  };
}

export class SseReader {
  readonly blocks: SseBlock[] = [];
  ended = false;
  private waiters = new Set<() => void>();
  private reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
    void this.pump();
  }

  /** The `price` events so far, parsed. */
  get prices(): any[] {
    return this.blocks.filter((b) => b.event === 'price').map((b) => JSON.parse(b.data!));
  }

  /** Waits for the first block from index `from` that `match` accepts. */
  async next(match: (b: SseBlock) => boolean, timeoutMs = 10_000, from = 0): Promise<SseBlock> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.blocks.slice(from).find(match);
      if (found) return found;
      if (this.ended)
        throw new Error(`stream ended without the block; got ${JSON.stringify(this.blocks.map((b) => b.event ?? b.comment ?? b.retry))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such block within ${timeoutMs} ms; got ${this.blocks.length} blocks`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** Resolves when the server ends the stream. */
  async end(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('stream did not end');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    const split = blockSplitter((block) => this.blocks.push(parse(block, Date.now())));
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        split(decoder.decode(value, { stream: true }));
        this.wake();
      }
    } catch {
      /* cancelled or cut off */
    }
    this.ended = true;
    this.wake();
  }

  private wake() {
    for (const w of [...this.waiters]) w();
  }
}

function parse(block: string, at: number): SseBlock {
  const out: SseBlock = { at };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      out.comment = line.slice(1).trim();
      continue;
    }
    const i = line.indexOf(':');
    const field = i === -1 ? line : line.slice(0, i);
    const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'event') out.event = value;
    else if (field === 'id') out.id = value;
    else if (field === 'data') out.data = out.data === undefined ? value : `${out.data}\n${value}`;
    else if (field === 'retry') out.retry = Number(value);
  }
  return out;
}
