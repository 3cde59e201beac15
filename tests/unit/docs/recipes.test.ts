import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as historyCsv from '@/app/api/v1/history.csv/route';
import * as history from '@/app/api/v1/history/route';
import * as priceTxt from '@/app/api/v1/price.txt/route';
import * as spot from '@/app/api/v1/spot/route';
import { recipes, type RecipeCall } from '@/site/recipes';
import { FakeUpstream } from '../../support/fake-upstream';
import { realChartHandler } from '../../support/yahoo';

// Every recipe of /docs/recipes, as written: each URL it calls answers 200 from the route handlers (in process,
// against the fake upstream's recorded real bodies), and each field it reads is in the answer: a JSON path into
// the JSON, a column of the CSV header, the number itself for price.txt. The snippets quote the URLs they call.

const ORIGIN = 'https://gold.example';

const HANDLERS: Record<string, (req: Request) => Promise<Response>> = {
  '/api/v1/price.txt': priceTxt.GET,
  '/api/v1/spot': spot.GET,
  '/api/v1/history': history.GET,
  '/api/v1/history.csv': historyCsv.GET,
};

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await FakeUpstream.start();
  fake.onChart(realChartHandler());
  for (const [k, v] of Object.entries(fake.env())) vi.stubEnv(k, v);
  vi.stubEnv('DATA_DIR', fs.mkdtempSync(path.join(os.tmpdir(), 'goldapi-recipes-')));
  vi.stubEnv('UPSTREAM_TIMEOUT_MS', '5000');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
});

/**
 * The values a JSON path (`$.a.b`, `$.points[*].d`) selects: every item of an array at `[*]`. A path that reaches
 * nothing, or only undefined, selects nothing.
 */
function select(value: unknown, jsonPath: string): unknown[] {
  expect(jsonPath, 'a JSON path starting at $').toMatch(/^\$(\.\w+(\[\*\])?)+$/);
  let current: unknown[] = [value];
  for (const [, key, all] of jsonPath.matchAll(/\.(\w+)(\[\*\])?/g)) {
    current = current.flatMap((v) => (v !== null && typeof v === 'object' && key in v ? [(v as Record<string, unknown>)[key]] : []));
    if (all) current = current.flatMap((v) => (Array.isArray(v) ? v : []));
  }
  return current.filter((v) => v !== undefined);
}

async function answer(call: RecipeCall) {
  const url = new URL(ORIGIN + call.path);
  const handler = HANDLERS[url.pathname];
  expect(handler, `a handler for ${url.pathname}`).toBeTruthy();
  const res = await handler(new Request(url));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const list = recipes(ORIGIN);

describe('recipes', () => {
  it('cover the tools the docs promise', () => {
    expect(list.map((r) => r.title)).toEqual(['Google Sheets', 'Excel', 'Home Assistant', 'Portfolio Performance', 'Grafana', 'curl and jq']);
  });

  for (const recipe of list) {
    it(`${recipe.title}: every URL answers 200 and every field it reads is there`, async () => {
      expect(recipe.calls.length).toBeGreaterThan(0);
      const snippets = recipe.snippets.map((s) => s.code).join('\n');
      for (const call of recipe.calls) {
        // What the page shows is what is checked here.
        expect(snippets, call.path).toContain(ORIGIN + call.path);
        const r = await answer(call);
        expect(r.status, call.path).toBe(200);
        for (const h of call.headers ?? []) expect(r.headers.get(h), `${call.path} ${h}`).toBeTruthy();
        if (call.format === 'text') {
          expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
          expect(r.text, call.path).toMatch(/^\d+(\.\d+)?\n$/);
        } else if (call.format === 'csv') {
          expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
          const [header, first] = r.text.split('\r\n');
          const columns = header.split(',');
          for (const name of call.reads) expect(columns, `${call.path} column ${name}`).toContain(name);
          // At least one row, so the recipe fills something.
          expect(first, call.path).toMatch(/^\d{4}-\d\d-\d\d,/);
        } else {
          expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
          const body = JSON.parse(r.text);
          for (const p of call.reads) {
            const found = select(body, p);
            expect(found.length, `${call.path} ${p}`).toBeGreaterThan(0);
            expect(
              found.every((v) => v !== null),
              `${call.path} ${p}`,
            ).toBe(true);
          }
        }
      }
    });
  }

  it('a date and a close read by JSON path are a date and a number, one each per point', async () => {
    const call = list.find((r) => r.id === 'portfolio-performance')!.calls[0];
    const body = JSON.parse((await answer(call)).text);
    const [dates, closes] = call.reads.map((p) => select(body, p));
    expect(dates.length).toBe(body.points.length);
    expect(closes.length).toBe(dates.length);
    for (const d of dates) expect(d).toMatch(/^\d{4}-\d\d-\d\d$/);
    for (const c of closes) expect(typeof c).toBe('number');
  });

  it('the Home Assistant sensor polls no more than once a minute', () => {
    const yaml = list.find((r) => r.id === 'home-assistant')!.snippets[0].code;
    const intervals = [...yaml.matchAll(/scan_interval: (\d+)/g)].map((m) => Number(m[1]));
    expect(intervals.length).toBe([...yaml.matchAll(/platform: rest/g)].length);
    for (const s of intervals) expect(s).toBeGreaterThanOrEqual(60);
    expect(yaml).toMatch(/unit_of_measurement: /);
  });
});
