// Records the OpenAPI examples: real responses of this service, built from the recorded real
// upstream responses in tests/fixtures (so every figure traces to a real upstream body).
// Run after a build: npx tsx scripts/record-examples.ts
import fs from 'node:fs';
import path from 'node:path';
import { App } from '../tests/support/app';
import { FakeUpstream } from '../tests/support/fake-upstream';

const EXAMPLES: Record<string, string> = {
  spot: '/api/v1/spot?currency=EUR&compact=1',
};

async function main() {
  const fake = await FakeUpstream.start();
  const app = await App.start({ env: fake.env() });
  try {
    for (const [name, url] of Object.entries(EXAMPLES)) {
      const res = await app.get(url, { headers: { 'x-forwarded-host': 'gold.example', 'x-forwarded-proto': 'https' } });
      const body = await res.json();
      fs.writeFileSync(path.join(__dirname, '..', 'lib', 'data', 'examples', `${name}.json`), JSON.stringify(body, null, 2) + '\n');
      console.log(`${name}: HTTP ${res.status}`);
    }
  } finally {
    await app.stop();
    await fake.close();
  }
}
main();
