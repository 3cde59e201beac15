import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MonthlyMetal, MonthlySeries } from '@/lib/series/monthly';
import { FakeUpstream } from '../../support/fake-upstream';
import { editedWorkbook, monthDay, rawEnds, rawSheet, workbookBytes } from '../../support/workbook';

// The monthly series since 1960 as the history endpoint gets it (decisions §24): the World Bank's workbook fetched at
// most once a day, every metal's series read from one fetch, and the bundled snapshot whenever no fetched copy is held:
// never an error. The service's clock is stepped by hand (only Date is faked), so TTLs and pauses are exact.

let fake: FakeUpstream;
let monthly: typeof import('@/lib/series/monthly');
let now = Date.parse('2026-11-26T12:00:00Z');
const HOUR = 3_600_000;
const later = (ms: number) => vi.setSystemTime((now += ms));
/** Longer than the feed's pause after failures in a row, so the next call asks the upstream again. */
const PAST_PAUSE = 10_000;
/** Longer than the 6 hours an edition the reader refused is left alone (decisions §29). */
const PAST_HOLD = 6 * HOUR + 1000;
const EDITION = '2026-07-02T00:00:00.000Z';
const NAMES = { gold: 'Gold', silver: 'Silver', platinum: 'Platinum' } as const;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env(), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-monthly-')) });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  monthly = await import('@/lib/series/monthly');
});
afterAll(async () => {
  vi.useRealTimers();
  await fake.close();
});

/** `n` calls at once, cycling through the metals. */
const burst = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => monthly.getMonthlySeries(monthly.MONTHLY_METALS[i % 3])));

/** The series holds the workbook's own first and last month of that metal, read by header text from the sheet. */
async function expectWorkbookEnds(metal: MonthlyMetal, s: MonthlySeries) {
  const { first, last } = await rawEnds(NAMES[metal]);
  expect(s.points[0]).toEqual({ d: '1960-01-01', c: first[1] });
  expect(s.points[s.points.length - 1]).toEqual({ d: monthDay(last[0]), c: last[1] });
  // Every month in between, once, in order.
  const [y, m] = [Number(last[0].slice(0, 4)), Number(last[0].slice(5))];
  expect(s.points).toHaveLength((y - 1960) * 12 + m);
  expect(s.points.every((p, i) => i === 0 || p.d > s.points[i - 1].d)).toBe(true);
}

const fromSnapshot = { status: 'stale', source: 'snapshot', as_of: EDITION };

describe('before the first fetch, with the workbook upstream down', () => {
  it('the snapshot answers every metal, stale, dated by its edition; a cold burst asks the upstream once', async () => {
    fake.set('monthly', { mode: 'refuse' });
    const answers = await burst(20);
    expect(fake.calls.monthly).toBe(1);
    for (const s of answers) {
      expect(s.data_state).toEqual({ ...fromSnapshot, age_seconds: Math.floor((now - Date.parse(EDITION)) / 1000) });
      expect(s.workbook_date).toBe('2026-07-02');
    }
    for (const metal of monthly.MONTHLY_METALS) await expectWorkbookEnds(metal, answers[monthly.MONTHLY_METALS.indexOf(metal)]);
  });

  it('garbage counts as down: an HTML page, a cut-short workbook, a workbook without the Gold column', async () => {
    const bytes = workbookBytes();
    const garbage = [
      strToU8('<!DOCTYPE html><html><head><title>Page not found</title></head><body>World Bank</body></html>'),
      bytes.slice(0, bytes.length - 4096),
      editedWorkbook('xl/sharedStrings.xml', (xml) => xml.replace('<si><t>Gold</t></si>', '<si><t>Gold (discontinued)</t></si>')),
    ];
    for (const body of garbage) {
      later(PAST_HOLD);
      fake.set('monthly', { mode: 'bytes', body });
      const before = fake.calls.monthly;
      const s = await monthly.getMonthlySeries('gold');
      expect(fake.calls.monthly).toBe(before + 1);
      expect(s.data_state).toMatchObject(fromSnapshot);
      expect(s.points.length).toBeGreaterThan(700);
    }
  });
});

describe('an edition the reader refuses', () => {
  it('is fetched once in a minute of requests, and again only after 6 hours; a failure to reach it is retried soon', async () => {
    fake.set('monthly', { mode: 'bytes', body: workbookBytes().slice(0, 50_000) });
    later(PAST_HOLD);
    fake.resetCalls();
    // A request every two seconds for a minute: one fetch, every answer from the snapshot.
    for (let t = 0; t < 60; t += 2) {
      const s = await monthly.getMonthlySeries(monthly.MONTHLY_METALS[t % 3]);
      expect(s.data_state).toMatchObject(fromSnapshot);
      later(2000);
    }
    expect(fake.calls.monthly).toBe(1);
    later(5 * HOUR);
    await burst(5);
    expect(fake.calls.monthly).toBe(1);
    later(HOUR);
    await burst(5);
    expect(fake.calls.monthly).toBe(2);
    // Unreachable rather than refused: no hold, the next call after the usual pause asks again.
    fake.set('monthly', { mode: 'status', status: 503, text: 'Service Unavailable' });
    later(PAST_HOLD);
    await monthly.getMonthlySeries('gold');
    later(PAST_PAUSE);
    await monthly.getMonthlySeries('gold');
    expect(fake.calls.monthly).toBe(4);
  });
});

describe('once the workbook answers', () => {
  it('is fresh, from the upstream, in the workbook own words, and serves the other metals from the same fetch', async () => {
    fake.reset();
    later(PAST_PAUSE);
    const before = fake.calls.monthly;
    const gold = await monthly.getMonthlySeries('gold');
    expect(gold.data_state).toMatchObject({ status: 'fresh', source: 'upstream', as_of: EDITION });
    expect(gold).toMatchObject({
      source: 'World Bank Commodity Price Data (The Pink Sheet), monthly average prices',
      license: 'CC BY 4.0',
      attribution: 'World Bank, Commodity Price Data (The Pink Sheet)',
      workbook_date: '2026-07-02',
    });
    const described = (await rawSheet('Description')).flat().filter((c): c is string => typeof c === 'string');
    for (const metal of monthly.MONTHLY_METALS) {
      const s = metal === 'gold' ? gold : await monthly.getMonthlySeries(metal);
      if (metal !== 'gold') expect(s.data_state).toMatchObject({ status: 'fresh', source: 'cache', as_of: EDITION });
      expect(s.description).toBe(described.find((c) => c.startsWith(NAMES[metal]))!.replace(/\s+/g, ' '));
      await expectWorkbookEnds(metal, s);
    }
    expect(gold.description).toContain('London afternoon fixing');
    expect(fake.calls.monthly).toBe(before + 1);
  });

  it('is fetched at most once per day however many calls, and once when the day is over', async () => {
    fake.resetCalls();
    later(23 * HOUR);
    const within = await burst(30);
    expect(fake.calls.monthly).toBe(0);
    expect(within.every((s) => s.data_state.status === 'fresh' && s.data_state.source === 'cache')).toBe(true);
    later(2 * HOUR);
    const next = await burst(30);
    expect(fake.calls.monthly).toBe(1);
    expect(next.every((s) => s.data_state.status === 'fresh' && s.data_state.source === 'upstream')).toBe(true);
  });

  it('a failing upstream later: the copy kept in the store answers, stale, not the snapshot', async () => {
    later(25 * HOUR);
    fake.set('monthly', { mode: 'status', status: 503, text: 'Service Unavailable' });
    const before = fake.calls.monthly;
    const s = await monthly.getMonthlySeries('platinum');
    expect(fake.calls.monthly).toBe(before + 1);
    expect(s.data_state).toMatchObject({ status: 'stale', source: 'cache', as_of: EDITION });
    await expectWorkbookEnds('platinum', s);
  });

  it('a kept copy of an edition older than the bundled one gives way to the snapshot while the upstream fails', async () => {
    // The real workbook, its update line moved a year back: served fresh while fetched, then outranked by the snapshot.
    const older = editedWorkbook('xl/sharedStrings.xml', (xml) => xml.replace('Updated as of: July 2, 2026', 'Updated as of: July 2, 2025'));
    later(PAST_PAUSE);
    fake.set('monthly', { mode: 'bytes', body: older });
    const fetched = await monthly.getMonthlySeries('silver');
    expect(fetched).toMatchObject({ workbook_date: '2025-07-02', data_state: { status: 'fresh', source: 'upstream' } });
    later(25 * HOUR);
    fake.set('monthly', { mode: 'refuse' });
    const s = await monthly.getMonthlySeries('silver');
    expect(s.workbook_date).toBe('2026-07-02');
    expect(s.data_state).toMatchObject(fromSnapshot);
  });
});

describe('the metals', () => {
  it('are gold, silver and platinum: palladium is not a monthly metal', () => {
    expect(monthly.MONTHLY_METALS).toEqual(['gold', 'silver', 'platinum']);
    expect(monthly.isMonthlyMetal('palladium')).toBe(false);
    expect(monthly.isMonthlyMetal('xau')).toBe(false);
    expect(monthly.MONTHLY_METALS.every(monthly.isMonthlyMetal)).toBe(true);
    // @ts-expect-error palladium is not a MonthlyMetal (tsc checks this line)
    const refused = () => monthly.getMonthlySeries('palladium');
    expect(typeof refused).toBe('function');
  });
});
