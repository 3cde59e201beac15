import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, openApiDocument, STREAM_OPERATION } from '@/lib/docs/openapi';
import { PriceEvent } from '@/lib/schemas/stream';
import pkg from '../../../package.json';
import { checkContract } from '../../support/contract';

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const doc = openApiDocument('https://example.test');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    // The contract's version is the build's major.minor.
    expect((doc.info as { version: string }).version).toBe(pkg.version.split('.').slice(0, 2).join('.'));
    expect(doc.servers).toEqual([{ url: 'https://example.test' }]);
  });

  it('every example is a body that satisfies its own schema', () => {
    for (const op of OPERATIONS) {
      expect(op.ok.example, op.path).toBeTruthy();
      // A `.csv` twin's example is CSV text, made from its series' JSON example: it starts with the header row.
      if (op.csvOnly) expect(String(op.ok.example).split('\r\n')[0], op.path).toBe(op.csv!.columns.join(','));
      // A text answer's example is one number and a newline.
      else if (op.textOnly) expect(op.ok.example, op.path).toMatch(/^\d+(\.\d+)?\n$/);
      else checkContract(op.path, 200, op.ok.example);
    }
  });
});

describe('OpenAPI document: what a request may send, as validators read it', () => {
  const doc = openApiDocument('https://example.test') as any;
  const ajv = new Ajv2020({ strict: false });
  const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);
  const accepts = (path: string, name: string, value: unknown) => ajv.validate(param(path, name).schema, value);

  it('list values in any letter case, and empty values, as REST reads them; other values refused', () => {
    for (const [path, name, ok, bad] of [
      ['/api/v1/spot', 'unit', ['oz', 'OZ', 'Gram', 'KG', ''], ['stone', 'o z', 'ozz']],
      ['/api/v1/intraday', 'symbol', ['xau', 'XAU', 'xAg', ''], ['gold']],
      ['/api/v1/chart', 'interval', ['1d', '1D', '1wk', '1WK', ''], ['1x', '1d ']],
      ['/api/v1/history', 'format', ['csv', 'CSV', 'Json', ''], ['xml']],
      ['/api/v1/spot', 'compact', ['1', ''], ['0', 'yes']],
      ['/api/v1/intraday', 'hours', [1, 48, ''], [0, 49, 'six']],
      ['/api/v1/spot', 'currency', ['EUR', 'eur', ''], []],
    ] as [string, string, unknown[], unknown[]][]) {
      for (const v of ok) expect(accepts(path, name, v), `${name}=${v}`).toBe(true);
      for (const v of bad) expect(accepts(path, name, v), `${name}=${v}`).toBe(false);
      expect(param(path, name).description, name).toMatch(/empty value \(`[a-z]+=`\) is the same as leaving the parameter out/);
    }
  });

  it('no authentication, tag descriptions, a contact, and HEAD beside every GET', () => {
    expect(doc.security).toEqual([]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.info.contact.url).toBe('https://example.test/docs');
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      // POST /api/v1/alerts has no GET (nor HEAD).
      if (!item.get) continue;
      expect(item.head, path).toBeTruthy();
      expect(item.head.operationId).toBe(item.get.operationId.replace(/^get/, 'head'));
      for (const r of Object.values<any>(item.head.responses)) expect(r.content, path).toBeUndefined();
    }
  });

  it('documents POST /api/v1/alerts with its request schema, and the manage URL with GET, HEAD and DELETE', () => {
    const post = doc.paths['/api/v1/alerts'].post;
    expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AlertRequest' });
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '429', '503']));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['AlertRequest', 'AlertCreated', 'AlertView']));
    expect(Object.keys(doc.paths['/api/v1/alerts/{id}']).sort()).toEqual(['delete', 'get', 'head']);
    expect(doc.paths['/api/v1/alerts/push-key'].get.responses[200].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PushKey',
    });
  });

  it('no schema is named after a JavaScript global; errors are ErrorBody', () => {
    const names = Object.keys(doc.components.schemas);
    for (const global of ['Error', 'Date', 'Object', 'Array', 'Map', 'Set', 'Response', 'Request']) expect(names).not.toContain(global);
    expect(doc.paths['/api/v1/spot'].get.responses[400].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });

  it('CSV answers are strings beside the JSON model', () => {
    for (const path of ['/api/v1/intraday', '/api/v1/history', '/api/v1/chart']) {
      const content = doc.paths[path].get.responses[200].content;
      expect(content['application/json'].schema.$ref, path).toMatch(/^#\/components\/schemas\//);
      expect(content['text/csv'].schema.type, path).toBe('string');
    }
  });

  it('each series has a .csv operation whose 200 is text/csv alone, so generators type it as a string', () => {
    const names = (params: { name: string }[]) => params.map((p) => p.name);
    for (const path of ['/api/v1/intraday', '/api/v1/history', '/api/v1/chart']) {
      const json = doc.paths[path].get;
      const csv = doc.paths[`${path}.csv`]?.get;
      expect(csv, path).toBeTruthy();
      expect(csv.operationId).toBe(`${json.operationId}Csv`);
      expect(doc.paths[`${path}.csv`].head.operationId).toBe(`${json.operationId.replace(/^get/, 'head')}Csv`);
      const ok = csv.responses[200];
      expect(Object.keys(ok.content), path).toEqual(['text/csv']);
      expect(ok.content['text/csv'].schema.type).toBe('string');
      expect(ok.content['text/csv'].example).toMatch(/^[a-z,]+\r\n/);
      expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(['Cache-Control', 'CDN-Cache-Control', 'X-Data-State', 'X-Updated-At']));
      // Errors stay JSON.
      expect(csv.responses[400].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      // The same parameters as the JSON operation but `format`, which the path decides.
      expect(names(csv.parameters)).toEqual(names(json.parameters).filter((n) => n !== 'format'));
      // The JSON operation keeps `format` (a validating proxy lets format=csv through) and points typed clients to the twin.
      expect(json.parameters.find((p: { name: string }) => p.name === 'format').description).toContain(`${path}.csv`);
    }
  });
});

describe('OpenAPI document: the price stream', () => {
  const doc = openApiDocument('https://example.test') as any;
  const item = doc.paths[STREAM_OPERATION.path];

  it('answers text/event-stream whose events carry PriceEvent, with a real example; errors are JSON', () => {
    const ok = item.get.responses[200];
    expect(Object.keys(ok.content)).toEqual(['text/event-stream']);
    expect(ok.content['text/event-stream'].schema).toEqual({ $ref: '#/components/schemas/PriceEvent' });
    PriceEvent.parse(ok.content['text/event-stream'].example);
    // The event's fields are described from the schema, every one of them.
    const fields = doc.components.schemas.PriceEvent.properties;
    for (const name of [
      'currency',
      'unit',
      'price',
      'silver',
      'platinum',
      'palladium',
      'bid',
      'ask',
      'change_pct',
      'market',
      'data_state',
      'updated_at',
    ]) {
      expect(fields[name], name).toBeTruthy();
    }
    // Never cached: no caching table, no validators, no 304.
    expect(ok.headers['Cache-Control'].schema.example).toBe('no-store, no-transform');
    expect(ok.headers.ETag).toBeUndefined();
    expect(item.get.responses[304]).toBeUndefined();
    for (const status of [400, 503])
      expect(item.get.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(item.get.parameters.map((p: { name: string }) => p.name)).toEqual(['currency', 'unit', 'Last-Event-ID']);
    expect(item.head.operationId).toBe('headStream');
  });
});
