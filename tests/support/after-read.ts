import { vi } from 'vitest';
import type { Store } from '@/lib/store';

/**
 * Runs `then` once, right after the next read of document `id` of `coll` returns and before the reader can write what
 * it read back: the window in which another request (a DELETE by the manage URL, another instance's write) races a
 * read-modify-write. Returns the function that puts the store's reads back.
 */
export function afterNextRead(store: Store, coll: string, id: string, then: () => Promise<unknown>): () => void {
  let armed = true;
  const spies = (['getDoc', 'getDocRev'] as const).map((method) => {
    const read = store[method].bind(store) as (c: string, i: string) => Promise<unknown>;
    return vi.spyOn(store, method).mockImplementation((async (c: string, i: string) => {
      const got = await read(c, i);
      if (armed && c === coll && i === id) {
        armed = false;
        await then();
      }
      return got;
    }) as never);
  });
  return () => spies.forEach((s) => s.mockRestore());
}
