import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { openApiDocument } from '../../lib/docs/openapi';

// Contract checks: every REST response the integration tests receive is validated against the
// OpenAPI document's schema for its path and status (tests/support/app.ts calls this).

const doc = openApiDocument('http://contract.test') as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const cache = new Map<string, ValidateFunction | null>();

function validator(path: string, status: number): ValidateFunction | null {
  const key = `${path} ${status}`;
  if (!cache.has(key)) {
    const schema = doc.paths[path]?.get?.responses?.[status]?.content?.['application/json']?.schema;
    // The component schemas ride along so `#/components/schemas/…` resolves inside each root.
    cache.set(key, schema ? ajv.compile({ ...schema, components: doc.components }) : null);
  }
  return cache.get(key)!;
}

/** Throws when `body` breaks the documented contract of `path` for `status`. Undocumented paths pass. */
export function checkContract(pathAndQuery: string, status: number, body: unknown): void {
  const path = pathAndQuery.split('?')[0];
  if (!doc.paths[path]) return;
  const validate = validator(path, status);
  if (!validate) throw new Error(`contract: ${path} answered ${status}, which the OpenAPI document does not list`);
  if (!validate(body)) {
    throw new Error(`contract: ${path} ${status} body breaks its schema: ${ajv.errorsText(validate.errors)}`);
  }
}
