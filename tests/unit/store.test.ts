import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openEmbeddedStore } from '@/lib/store/embedded';
import { storeContract, type Backend } from '../support/store-contract';

// The embedded store (SQLite in a temp folder): the store contract, and its housekeeping.

function embedded(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-store-'));
  return { open: () => openEmbeddedStore(dir), reopen: () => openEmbeddedStore(dir) };
}

storeContract('embedded', embedded);

describe('embedded store: housekeeping', () => {
  it('expired claim and counter rows are swept out, at most once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-sweep-'));
    const store = openEmbeddedStore(dir);
    try {
      vi.setSystemTime(new Date('2026-11-23T00:00:00Z'));
      for (let i = 0; i < 50; i++) await store.incr(`rl:mcp:10.0.0.${i}:1`, 60);
      for (let i = 0; i < 50; i++) await store.claim(`sample:xau:120:${i}`, 240);
      const rows = async () => {
        const { DatabaseSync } = await import('node:sqlite');
        const db = new DatabaseSync(path.join(dir, 'store.sqlite'), { readOnly: true });
        try {
          return (db.prepare('SELECT COUNT(*) AS n FROM kv').get() as { n: number }).n;
        } finally {
          db.close();
        }
      };
      expect(await rows()).toBe(100);
      vi.setSystemTime(new Date('2026-11-23T00:05:00Z'));
      await store.incr('rl:mcp:10.0.0.200:6', 60);
      expect(await rows()).toBe(1);
    } finally {
      await store.close();
      vi.useRealTimers();
    }
  });
});
