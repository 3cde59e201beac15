import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redisAddress } from '@/lib/store/redis';

// docs/deploying.md quotes what runs: the nginx configuration the integration test starts in front of two instances
// (tests/integration/store/many-instances.test.ts runs docs/nginx.conf) and the line an instance logs for its Redis.

const ROOT = path.resolve(__dirname, '../../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/deploying.md'), 'utf8');

describe('docs/deploying.md', () => {
  it('quotes docs/nginx.conf whole, as the test runs it', () => {
    const quoted = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(quoted).toBe(fs.readFileSync(path.join(ROOT, 'docs/nginx.conf'), 'utf8'));
  });

  it("shows the start-up line an instance logs for the documented REDIS_URL's server", () => {
    const url = /`(rediss:\/\/[^`]+)`/.exec(doc)![1];
    expect(doc).toContain(`[store] shared store: Redis at ${redisAddress(url)} (REDIS_URL)`);
  });
});
