import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from './support/app';
import { FakeUpstream } from './support/fake-upstream';

let fake: FakeUpstream;
let app: App;

beforeAll(async () => {
  fake = await FakeUpstream.start();
  app = await App.start({ env: fake.env() });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('spot', () => {
  it('answers', async () => {
    const r = await app.json('/api/v1/spot');
    expect(r.status).toBe(200);
  });
});
