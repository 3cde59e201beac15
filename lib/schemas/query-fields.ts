import { z } from 'zod';

// Building blocks of the query schemas. Each field carries its own 400 wording, so the REST
// route, the MCP tool built from the same schema and the OpenAPI parameter all say the same thing.

type Issue = { input?: unknown };
const shown = (input: unknown) => (typeof input === 'string' || typeof input === 'number' ? String(input) : (JSON.stringify(input) ?? ''));

/**
 * The one wording of a refused value: "<lead>: <value>. Valid values: …", or "<name> is required.
 * Valid values: …" when the value is missing (a tool argument without a default).
 */
export function refusal(name: string, input: unknown, valid: string, lead = `Invalid ${name}`): string {
  return input === undefined ? `${name} is required. Valid values: ${valid}` : `${lead}: ${shown(input)}. Valid values: ${valid}`;
}

/** One of a fixed list (REST reads it case-insensitively). `lead` replaces "Invalid <name>" where the contract words it otherwise. */
export function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T, lead = `Invalid ${name}`) {
  return z.enum(values, { error: (iss: Issue) => refusal(name, iss.input, values.join(', '), lead) });
}

/** The answer formats of the series endpoints (`format=`): JSON, or CSV (lib/http/csv.ts). */
export const FORMATS = ['json', 'csv'] as const;

/** A whole number from `min` to `max`. */
export function wholeNumber(name: string, min: number, max: number) {
  const error = (iss: Issue) => refusal(name, iss.input, `a whole number from ${min} to ${max}`);
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** A switch whose only value is `1`. */
export function flag(name: string) {
  return z.literal('1', { error: (iss: Issue) => refusal(name, iss.input, '1') });
}

/** What a field accepts, as the `valid` list of its 400: the enum, the literal, or a short whole-number range. */
export function validValues(field: z.ZodType): string[] | undefined {
  const base = unwrap(field);
  if (base instanceof z.ZodEnum) return base.options.map(String);
  if (base instanceof z.ZodLiteral) return [...base.values].map(String);
  if (base instanceof z.ZodNumber && base.isInt && base.minValue !== null && base.maxValue !== null && base.maxValue - base.minValue < 100) {
    return Array.from({ length: base.maxValue - base.minValue + 1 }, (_, i) => String(base.minValue! + i));
  }
  return undefined;
}

/** The schema under its default and optional wrappers. */
export function unwrap(field: z.ZodType): z.ZodType {
  let f = field;
  while (f instanceof z.ZodDefault || f instanceof z.ZodOptional) f = f.unwrap() as z.ZodType;
  return f;
}
