import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// An outage inside a tool (decisions §25): the store cannot be opened (DATA_DIR is a file, not a
// folder), so the daily spot series throws the 503 REST answers with its reason. Through the SDK's
// own client, the tool answers that as its ordinary unavailable result, and nothing is logged as a defect.

let client: Client;
beforeAll(async () => {
  const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-tool-outage-')), 'not-a-folder');
  fs.writeFileSync(blocker, 'a file where the store would be');
  vi.stubEnv('DATA_DIR', path.join(blocker, 'data'));
  vi.stubEnv('GOLD_API_URL', 'http://127.0.0.1:9');
  const { createGoldServer } = await import('@/lib/mcp/server');
  const server = createGoldServer({ origin: 'http://t' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 't', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
});
afterAll(async () => {
  await client.close();
  vi.unstubAllEnvs();
});

describe('mcp: the store down', () => {
  it('get_gold_history {series: spot} is an unavailable result with its reason, no "Internal failure", no error log', async () => {
    const errors = vi.spyOn(console, 'error');
    try {
      const result = await client.callTool({ name: 'get_gold_history', arguments: { series: 'spot' } });
      const texts = (result.content as { text: string }[]).map((c) => c.text);
      expect(result.isError).toBeFalsy();
      expect(texts.join('\n')).not.toMatch(/internal failure/i);
      expect(texts[0]).toMatch(/^Unavailable: Daily spot bars unavailable: the store is not answering/);
      expect(result.structuredContent).toMatchObject({
        error: expect.stringMatching(/store is not answering/),
        data_state: { status: 'unavailable', as_of: null },
      });
      expect(Date.parse((result.structuredContent as { updated_at: string }).updated_at)).not.toBeNaN();
      expect(JSON.parse(texts[1])).toEqual(result.structuredContent);
      // Not a defect: no stack trace, no "[mcp] tool failed".
      expect(errors.mock.calls.map((c) => c.map(String).join(' ')).filter((line) => /mcp|tool|Error/i.test(line))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});
