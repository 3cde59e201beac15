import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spot } from '@/lib/schemas/spot';
import { App } from '../../support/app';
import { sleep } from '../../support/expect';
import { FakeUpstream, fixture } from '../../support/fake-upstream';
import { mcpClient } from '../../support/mcp';

// The embedded store on the runtime the project supports: it starts every time, and a DATA_DIR that
// cannot hold it costs persistence, never a price.

const gold = fixture('goldapi-price-XAU.json');

const running: (App | FakeUpstream)[] = [];
afterEach(async () => {
  for (const x of running.splice(0).reverse()) await (x instanceof App ? x.stop() : x.close());
});

async function start(dataDir: string, env: Record<string, string> = {}) {
  const fake = await FakeUpstream.start();
  running.push(fake);
  // The quotes feed is refused, so the price served is the primary's recorded one.
  fake.set('quotes', { mode: 'refuse' });
  const app = await App.start({ env: { ...fake.env(), ...env }, dataDir });
  running.push(app);
  return { app, fake };
}

describe('a DATA_DIR that cannot hold the store', () => {
  it('is named once at start-up; spot, MCP and widgets answer from memory, fresh and then stale', async () => {
    // Tests run as root, where permissions block nothing: a folder inside a regular file cannot exist for anyone.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-notdir-')), 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const dataDir = path.join(file, 'data');
    const { app, fake } = await start(dataDir, { CACHE_TTL_S: '1' });
    expect(app.output).toContain(`[store] DATA_DIR "${dataDir}" cannot hold the store (ENOTDIR`);

    const spot = await app.json('/api/v1/spot?compact=1&debug=1');
    expect(spot.status).toBe(200);
    Spot.parse(spot.body);
    expect(spot.body).toMatchObject({ stale: false, spot_usd_oz: gold.price, data_state: { status: 'fresh' } });
    expect(spot.body.debug.store).toBe('embedded-degraded');

    const client = await mcpClient(app);
    const result: any = await client.callTool({ name: 'get_gold_price', arguments: {} });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ spot_usd_oz: gold.price, data_state: { status: 'fresh' } });

    // No bars can be read or kept: the change says it does not know, with every number null, and the
    // spot series is a clear 503, never an empty series passed off as the truth.
    expect(spot.body.change).toMatchObject({ state: 'unavailable', previous_close: null, change: null, change_pct: null });
    const bars = await app.json('/api/v1/history?series=spot');
    expect(bars.status).toBe(503);
    expect(bars.body.error).toMatch(/store is not answering/);
    expect(bars.body.updated_at).toEqual(expect.any(String));

    const widget = await app.get('/widgets/price');
    expect(widget.status).toBe(200);
    expect(await widget.text()).toContain('"status":"fresh"');

    // Both sources down: the last real price, held in memory, is served stale.
    fake.set('gold', { mode: 'refuse' });
    await sleep(1200);
    const stale = await app.json('/api/v1/spot?compact=1');
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ stale: true, spot_usd_oz: gold.price, data_state: { status: 'stale' } });

    // One line for the whole run, however many reads and writes failed.
    expect(app.output.match(/\[store\].*/g), app.output).toHaveLength(1);
  });
});

describe('the embedded store on Node 24', () => {
  // Sequential starts of the whole app (store opened at start-up, read and written by a request, closed
  // by SIGTERM), each about 3 s on a 2-core machine: eight of them keep this under half a minute.
  it('starts 8 times in a row on one DATA_DIR without an abort', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-starts-'));
    const fake = await FakeUpstream.start();
    running.push(fake);
    fake.set('quotes', { mode: 'refuse' });
    for (let i = 1; i <= 8; i++) {
      const app = await App.start({ env: fake.env(), dataDir });
      // A request that reads and writes the store, then a clean stop.
      const r = await app.json('/api/v1/spot?compact=1');
      expect(r.status, `start ${i}`).toBe(200);
      await app.stop();
      expect(app.output, `start ${i}`).not.toMatch(/Assertion failed|Aborted|core dumped|\[store\]/);
    }
  }, 900_000);
});
