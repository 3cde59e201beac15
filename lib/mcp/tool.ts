import type { CallToolResult, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ApiError } from '../core/errors';
import { DataState, Timestamp } from '../schemas/common';
import { isUnavailable, NOTHING, unavailable, type Unavailable } from '../sources/unavailable';
import type { ViewName } from './views';

// A tool is data: its name, words, input and output schemas and a body that calls the same lib/
// function as its REST endpoint. The server registers every tool from this shape, and the docs
// describe them from it, so there is one description of each.
//
// Results: a text summary first, the full JSON second, and `structuredContent` equal to the REST
// body. Missing data is an ordinary result that says so, an outage named as a 503 too; invalid
// arguments and internal failures are `isError` results. Arguments are checked here, against the tool's own input schema, so a
// bad one is refused in the same words as REST ("Invalid hours: abc. Valid values: …", "symbol is
// required. Valid values: …"), not in the SDK's ("Input validation error: Invalid arguments for
// tool …: hours: …").

export interface ToolContext {
  /** Origin of the request, for the links inside REST bodies. */
  origin: string;
}

export interface ToolAnswer {
  body: Record<string, unknown>;
  summary: string;
}

export interface Tool<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What it returns, in which units and currency, and how fresh. */
  description: string;
  input: I;
  output: z.ZodObject;
  /** The MCP Apps view a host that renders them draws the result in (lib/mcp/views.ts); none: text only. */
  view?: ViewName;
  run: (args: z.output<I>, ctx: ToolContext) => Promise<ToolAnswer | Unavailable>;
}

/** Declares a tool with its argument types inferred from its input schema. */
export function tool<I extends z.ZodObject>(t: Tool<I>): Tool<I> {
  return t;
}

/**
 * A tool's output schema: the REST body, or the REST 503 body when the data is unavailable. The
 * root stays one plain object (several clients reject anything else): `data_state` and
 * `updated_at` are required, every other field is typed exactly as REST types it, and a result is
 * checked to be either the whole REST body or an `error` with its state.
 */
export function toolOutput<S extends z.ZodObject>(schema: S) {
  return schema
    .partial()
    .extend({
      error: z.string().optional().meta({ description: 'Present only when the data is unavailable: why' }),
      data_state: DataState,
      updated_at: Timestamp,
    })
    .refine((body) => body.error !== undefined || schema.safeParse(body).success, {
      message: 'A result is either the whole REST body or an unavailable body with `error`',
    });
}

type JsonSchemaOf = (options: { target: string }) => Record<string, unknown>;
/** JSON Schemas already converted, per zod schema and direction. */
const converted = new WeakMap<z.ZodType, { input?: Record<string, unknown>; output?: Record<string, unknown> }>();

/**
 * The JSON Schema of `schema`, converted once per process: the SDK converts on every `tools/list`
 * (about 60 ms for the five tools), and a server lives for one request. The SDK always asks for
 * draft 2020-12, so the conversion is kept whatever `options` say.
 */
function jsonSchemaOnce(schema: z.ZodType): { input: JsonSchemaOf; output: JsonSchemaOf } {
  const convert = schema['~standard'].jsonSchema;
  const memo = converted.get(schema) ?? {};
  converted.set(schema, memo);
  return { input: (options) => (memo.input ??= convert.input(options)), output: (options) => (memo.output ??= convert.output(options)) };
}

/**
 * The input schema as the SDK sees it: listed as the tool's JSON Schema, but accepting any arguments
 * object, so the refusal of a bad argument is ours (`args` below), not the SDK's.
 */
export function listedInput(schema: z.ZodObject): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'goldapi',
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: jsonSchemaOnce(schema),
    },
  };
}

/** The output schema as the SDK sees it: the tool's own check of a result, its JSON Schema converted once. */
export function listedOutput(schema: z.ZodType): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'goldapi',
      validate: (value) =>
        schema['~standard'].validate(value) as ReturnType<StandardSchemaWithJSON<Record<string, unknown>>['~standard']['validate']>,
      jsonSchema: jsonSchemaOnce(schema),
    },
  };
}

/** The arguments parsed by the tool's input schema; a refused one is a 400 naming the argument and its valid values. */
export function args<I extends z.ZodObject>(schema: I, raw: unknown): z.output<I> {
  // A refusal quotes the value it refuses, so a value too deep or too long to quote is refused first, unread.
  const given = (raw ?? {}) as Record<string, unknown>;
  const unread = Object.entries(schema.shape).flatMap(([name, field]) => {
    const why = given[name] === undefined ? null : unreadable(given[name]);
    return why ? [`Invalid ${name}: ${why}${validValues(field as z.ZodType)}`] : [];
  });
  if (unread.length) throw new ApiError(400, unread.join('; '));
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  // Every field words its own refusal; one that does not still gets its name in front.
  const said = (i: z.core.$ZodIssue) =>
    i.path.length && !i.message.includes(String(i.path[0])) ? `Invalid ${i.path.join('.')}: ${i.message}` : i.message;
  throw new ApiError(400, [...new Set(parsed.error.issues.map(said))].join('; '));
}

/** Every argument is one short value: deeper or longer than this, it is not read. */
const MAX_ARG_DEPTH = 10;
const MAX_ARG_CHARS = 1000;

/** "an object nested deeper than 10 levels", "a string of 200000 characters", or null for a value fit to read. */
function unreadable(value: unknown): string | null {
  const kind = typeof value === 'string' ? 'a string' : Array.isArray(value) ? 'an array' : 'an object';
  if (deeperThan(value, MAX_ARG_DEPTH)) return `${kind} nested deeper than ${MAX_ARG_DEPTH} levels`;
  const chars = typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
  return chars > MAX_ARG_CHARS ? `${kind} of ${chars} characters` : null;
}

/** Whether `value` holds values more than `max` levels down; level by level, so any depth is measured without recursion. */
function deeperThan(value: unknown, max: number): boolean {
  let level = [value];
  for (let depth = 0; depth <= max; depth++) {
    level = level.flatMap((v) => (typeof v === 'object' && v !== null ? Object.values(v as object) : []));
    if (!level.length) return false;
  }
  return true;
}

/** ". Valid values: …" as the field words it when refusing a wrong value (of the wrong type, or an empty string), or ''. */
function validValues(field: z.ZodType): string {
  for (const wrong of [null, '']) {
    const valid = /Valid values: .*$/s.exec(field.safeParse(wrong).error?.issues[0]?.message ?? '')?.[0];
    if (valid) return `. ${valid}`;
  }
  return '';
}

function content(summary: string, body: unknown): CallToolResult['content'] {
  return [
    { type: 'text', text: summary },
    { type: 'text', text: JSON.stringify(body) },
  ];
}

function unavailableResult(result: Unavailable): CallToolResult {
  const summary = `Unavailable: ${result.error} No figure is given rather than an invented one.`;
  return { content: content(summary, result), structuredContent: result };
}

/** Runs a tool body and turns its outcome into the tool result. */
export async function answer(run: () => Promise<ToolAnswer | Unavailable>): Promise<CallToolResult> {
  try {
    const result = await run();
    if (isUnavailable(result)) return unavailableResult(result);
    return { content: content(result.summary, result.body), structuredContent: result.body };
  } catch (err) {
    // A 503 is an outage the layer below has named (the store not answering), which REST answers with
    // its reason: the tool's unavailable answer, not a failure, and no defect to log (decisions §25).
    if (err instanceof ApiError && err.status === 503) {
      const state = (err.extra.data_state as DataState | undefined) ?? NOTHING;
      return unavailableResult(unavailable(err.message, state));
    }
    if (err instanceof ApiError && err.status === 400) {
      // Name the valid values, unless the message already does.
      const valid = (err.extra.valid ?? err.extra.supported) as string[] | undefined;
      const text = valid && !err.message.includes('Valid values') ? `${err.message}. Valid values: ${valid.join(', ')}` : err.message;
      return { isError: true, content: [{ type: 'text', text }] };
    }
    console.error('[mcp] tool failed', err);
    return { isError: true, content: [{ type: 'text', text: 'Internal failure while reading the data; please retry.' }] };
  }
}

/** "fresh as of …", "STALE (… s old, upstream down): as of …" or "unavailable". */
export function freshness(state: DataState): string {
  if (state.status === 'unavailable') return 'unavailable';
  if (state.status === 'stale') return `STALE: last real value as of ${state.as_of}, ${state.age_seconds} s old (upstream down)`;
  return `fresh, as of ${state.as_of}`;
}

export function fmt(n: number | null | undefined, digits = 2): string {
  return n === null || n === undefined ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: digits });
}
