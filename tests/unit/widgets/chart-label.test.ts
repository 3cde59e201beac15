import fs from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { STRINGS } from '@/widgets/i18n';
import { dataDirWithBars } from '../../support/bars';
import { FakeUpstream } from '../../support/fake-upstream';
import { marketClockAt } from '../../support/market';

// The chart widget names its line (decisions §23): the daily spot bars where they reach back over the range, else
// COMEX futures, labelled so. A store that does not answer cannot say how far the bars reach: the page then draws
// futures under the futures label, never under the spot one.

const t = STRINGS.en;
let fake: FakeUpstream;
let dataDir: string;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  // Real imported gold bars from January to the day before the clock: they cover a month's range.
  dataDir = await dataDirWithBars(['2026-01-02', '2026-02-02', '2026-04-15']);
  for (const [k, v] of Object.entries({ ...fake.env(), ...marketClockAt(Date.parse('2026-04-16T09:00:00-04:00')), DATA_DIR: dataDir }))
    vi.stubEnv(k, v);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The label the page shows over its first range's line. */
async function label(range: string): Promise<string> {
  const { chartPage } = await import('@/widgets/pages');
  const page = await chartPage(new URLSearchParams(`range=${range}&locale=en-US`), 'http://t');
  const shown = [t.lineSpot, t.lineFutures, t.lineIntraday].filter((l) => page.includes(`>${l}<`));
  expect(shown).toHaveLength(1);
  return shown[0];
}

it('the store not answering: a month of gold is drawn from futures, labelled futures; answering again, from the spot bars', async () => {
  const { getStore, StoreDownError } = await import('@/lib/store');
  const store = getStore();
  const allBars = store.allBars;
  store.allBars = () => Promise.reject(new StoreDownError('allBars', 'disk I/O error'));
  try {
    expect(await label('1mo')).toBe(t.lineFutures);
  } finally {
    store.allBars = allBars;
  }
  expect(await label('1mo')).toBe(t.lineSpot);
  // Beyond the bars (five years back from January 2026): futures, labelled so, with the store answering.
  expect(await label('5y')).toBe(t.lineFutures);
});
