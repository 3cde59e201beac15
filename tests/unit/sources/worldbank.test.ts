import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import snapshot from '@/lib/data/worldbank-monthly-2026-07-02.json';
import { getBytes, UpstreamError } from '@/lib/sources/upstream/fetch';
import { fetchMonthlyPrices, MIN_MONTHS, parseWorkbook, WORKBOOK_METALS, type MonthlyWorkbook } from '@/lib/sources/upstream/worldbank';
import { FakeUpstream } from '../../support/fake-upstream';
import { editedWorkbook, rawEnds, rawSheet, workbookBytes } from '../../support/workbook';

// The World Bank workbook adapter on the real 2026-07-02 edition, and on everything that is not that workbook:
// each counts as the upstream down (an UpstreamError), never as data.

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  Object.assign(process.env, fake.env());
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const NAMES = { gold: 'Gold', silver: 'Silver', platinum: 'Platinum' } as const;

/** The reason the workbook made of `bytes` is refused (fails the test if it is read). */
async function refused(bytes: Uint8Array): Promise<string> {
  const err = await parseWorkbook(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return (err as UpstreamError).reason;
}

describe('the real workbook', () => {
  let book: MonthlyWorkbook;
  beforeAll(async () => {
    book = await parseWorkbook(workbookBytes());
  });

  it('gives each metal every month from 1960-01 to the last, the cells as the sheet holds them', async () => {
    expect(book.from).toBe('1960-01');
    for (const id of WORKBOOK_METALS) {
      const { first, last } = await rawEnds(NAMES[id]);
      const c = book.metals[id].c;
      expect(first[0]).toBe('1960M01');
      expect(c[0]).toBe(first[1]);
      expect(c[c.length - 1]).toBe(last[1]);
      // One entry per month from 1960-01 to the last labelled month.
      const [y, m] = [Number(last[0].slice(0, 4)), Number(last[0].slice(5))];
      expect(c.length).toBe((y - 1960) * 12 + m);
      expect(c.every((x) => typeof x === 'number' && x > 0)).toBe(true);
    }
  });

  it("describes each metal in the Description sheet's own words and dates the edition by its update line", async () => {
    const cells = (await rawSheet('Description')).flat().filter((c): c is string => typeof c === 'string');
    for (const id of WORKBOOK_METALS) {
      const own = cells.find((c) => c.startsWith(NAMES[id]))!;
      expect(book.metals[id].description).toBe(own.replace(/\s+/g, ' ').trim());
    }
    expect(book.metals.gold.description).toMatch(/spot average of daily rates, from June 2025; previously .*London afternoon fixing/);
    expect(cells.some((c) => c.includes('July 2, 2026'))).toBe(true);
    expect(book.workbookDate).toBe('2026-07-02');
  });

  it('is what the bundled snapshot holds: the snapshot is this edition read by the same reader', async () => {
    expect(book).toEqual(snapshot);
  });
});

describe('not the workbook', () => {
  it('an HTML error page, a cut-short zip, or a zip of something else', async () => {
    expect(await refused(strToU8('<!DOCTYPE html><html><body>Service Unavailable</body></html>'))).toBe('not an xlsx workbook');
    const bytes = workbookBytes();
    expect(await refused(bytes.slice(0, Math.floor(bytes.length / 2)))).toBe('not an xlsx workbook');
    expect(await refused(zipSync({ 'readme.txt': strToU8('not a workbook') }))).toBe('not an xlsx workbook');
  });

  it('a workbook without the Gold column', async () => {
    const noGold = editedWorkbook('xl/sharedStrings.xml', (xml) => xml.replace('<si><t>Gold</t></si>', '<si><t>Gold (discontinued)</t></si>'));
    expect(await refused(noGold)).toBe('no "Gold" column');
  });

  it('a price outside the plausible bounds, zero, or a word where a price goes', async () => {
    // 1960M01 is row 7; gold's 35 there made 100000 times larger, then zero.
    const row7 = (v: string) => (xml: string) => xml.replace(/(<row r="7"[^>]*>.*?)<v>35<\/v>/, `$1<v>${v}</v>`);
    expect(await refused(editedWorkbook('sheet:Monthly Prices', row7('3500000')))).toBe('implausible gold price 3500000 in 1960M01');
    expect(await refused(editedWorkbook('sheet:Monthly Prices', row7('0')))).toBe('implausible gold price 0 in 1960M01');
    const word = editedWorkbook('sheet:Monthly Prices', (xml) =>
      xml.replace(/(<row r="7"[^>]*>.*?)<c r="([A-Z]+7)"([^>]*)><v>35<\/v><\/c>/, '$1<c r="$2"$3 t="inlineStr"><is><t>n/a</t></is></c>'),
    );
    expect(await refused(word)).toMatch(/^implausible gold price n\/a in 1960M01$/);
  });

  it('too few months, a month missing, or a sheet missing', async () => {
    // Every row after row 300 (1984M06) dropped.
    const cut = editedWorkbook('sheet:Monthly Prices', (xml) =>
      xml.replace(/<row r="(\d+)"[^>]*>.*?<\/row>/g, (row, r) => (Number(r) > 300 ? '' : row)),
    );
    expect(await refused(cut)).toBe(`only ${300 - 6} months`);
    expect(300 - 6).toBeLessThan(MIN_MONTHS);
    const gap = editedWorkbook('sheet:Monthly Prices', (xml) => xml.replace(/<row r="100"[^>]*>.*?<\/row>/, ''));
    expect(await refused(gap)).toMatch(/^month \d{4}M\d{2} out of sequence$/);
    const noDescription = editedWorkbook('xl/workbook.xml', (xml) => xml.replace('name="Description"', 'name="Notes"'));
    expect(await refused(noDescription)).toBe('no "Description" sheet');
  });
});

describe('fetching the bytes', () => {
  it('reads the workbook from MONTHLY_PRICES_URL, dated by its edition', async () => {
    fake.resetCalls();
    const got = await fetchMonthlyPrices();
    expect(fake.calls.monthly).toBe(1);
    expect(got.value.workbookDate).toBe('2026-07-02');
    expect(got.asOf).toBe(Date.parse('2026-07-02T00:00:00Z'));
    expect(got.fetchedAt).toBeGreaterThan(got.asOf);
  });

  it('refused, hung, non-2xx or not a workbook: an UpstreamError saying which', async () => {
    const reason = () =>
      fetchMonthlyPrices().then(
        () => 'read',
        (e: unknown) => (e instanceof UpstreamError ? e.reason : `not an UpstreamError: ${String(e)}`),
      );
    fake.set('monthly', { mode: 'refuse' });
    expect(await reason()).toBe('unreachable');
    fake.set('monthly', { mode: 'hang' });
    // A hang never answers: a short timeout only makes the test quicker.
    process.env.UPSTREAM_TIMEOUT_MS = '300';
    try {
      expect(await reason()).toBe('timed out');
    } finally {
      delete process.env.UPSTREAM_TIMEOUT_MS;
    }
    fake.set('monthly', { mode: 'status', status: 503, text: '<html>Service Unavailable</html>' });
    expect(await reason()).toBe('HTTP 503');
    fake.set('monthly', { mode: 'malformed' });
    expect(await reason()).toBe('not an xlsx workbook');
  });

  it('a body cut off by the connection is an interrupted body', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write(workbookBytes().slice(0, 1000), () => res.destroy());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.xlsx`;
      await expect(getBytes('test', url)).rejects.toMatchObject({ reason: 'body interrupted', status: 200 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
