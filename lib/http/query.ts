import { z } from 'zod';
import { unwrap, validValues } from '../schemas/query-fields';
import { ApiError } from '../core/errors';

/** A number written in plain decimal digits, at most 15 before and 15 after the point. */
const NUMBER = /^-?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})$/;

/**
 * Parses a request's query with the endpoint's query schema, the same schema the OpenAPI
 * parameters and the MCP tool inputs come from. Unknown parameters are ignored, as the interface
 * promises; empty means absent; a parameter given twice is refused (which value was meant is a
 * guess we will not make). List values are case-insensitive and numbers are read from plain decimal
 * digits (`12`, `0.925`, `999.9`; not `1e3` or `0x10`, which are refused as written). The first problem
 * becomes the documented 400 `{error, valid}`.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, url: URL): z.output<S> {
  const read = readQuery(schema, url);
  if (read.ok) return read.data;
  throw read.error;
}

/** A query read by {@link parseQuery}'s rules: its data, or the parameter refused first and the documented 400. */
export type QueryRead<T> = { ok: true; data: T } | { ok: false; name: string; error: ApiError };

/**
 * {@link parseQuery} without the throw, naming the parameter refused: a page that answers a form with the API's own
 * rules says in its own words which field was wrong.
 */
export function readQuery<S extends z.ZodObject>(schema: S, url: URL): QueryRead<z.output<S>> {
  const raw: Record<string, string | number> = {};
  for (const [name, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1) return { ok: false, name, error: new ApiError(400, `Parameter ${name} given more than once`) };
    const value = values[0];
    if (value === undefined || value === '') continue;
    const base = unwrap(field);
    if (base instanceof z.ZodEnum) raw[name] = value.toLowerCase();
    else if (base instanceof z.ZodNumber && NUMBER.test(value)) raw[name] = Number(value);
    else raw[name] = value;
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  const name = String(issue.path[0] ?? '');
  const fromRefinement = issue.code === 'custom' ? (issue.params?.valid as string[] | undefined) : undefined;
  const valid = fromRefinement ?? (schema.shape[name] ? validValues(schema.shape[name] as z.ZodType) : undefined);
  return { ok: false, name, error: new ApiError(400, issue.message, valid ? { valid } : {}) };
}
