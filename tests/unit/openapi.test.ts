import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, openApiDocument } from '@/lib/openapi';
import pkg from '../../package.json';
import { checkContract } from '../support/contract';

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
      checkContract(op.path, 200, op.ok.example);
    }
  });
});
