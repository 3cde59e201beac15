import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError, errorBody } from '../http/errors';
import { DataState, Timestamp } from '../schemas/common';

// Tool results: a text summary first (figure, unit, currency, time, state), the full JSON second, and
// `structuredContent` equal to the REST body. Missing data is an ordinary result that says so;
// invalid arguments and internal failures are `isError` results.

/** A tool's output schema: the REST body, or the REST 503 body when the data is unavailable. */
export function toolOutput<S extends z.ZodObject>(schema: S) {
  return schema.partial().extend({
    error: z.string().optional().meta({ description: 'Present only when the data is unavailable: why' }),
    data_state: DataState,
    updated_at: Timestamp,
  });
}

export interface ToolAnswer {
  body: Record<string, unknown>;
  summary: string;
}

function text(summary: string, body: unknown): CallToolResult['content'] {
  return [
    { type: 'text', text: summary },
    { type: 'text', text: JSON.stringify(body) },
  ];
}

/** Runs a tool body: a 400 becomes an `isError` result naming the valid values, a 503 an ordinary result saying unavailable. */
export async function answer(run: () => Promise<ToolAnswer>, state: () => Promise<DataState>): Promise<CallToolResult> {
  try {
    const { body, summary } = await run();
    return { content: text(summary, body), structuredContent: body };
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) {
      // Name the valid values, unless the message already does.
      const valid = (err.extra.valid ?? err.extra.supported) as string[] | undefined;
      const text = valid && !err.message.includes('Valid values') ? `${err.message}. Valid values: ${valid.join(', ')}` : err.message;
      return { isError: true, content: [{ type: 'text', text }] };
    }
    if (err instanceof ApiError && err.status === 503) {
      const { body } = errorBody(err, await state().catch(() => UNAVAILABLE));
      const summary = `Unavailable: ${body.error} No figure is given rather than an invented one.`;
      return { content: text(summary, body), structuredContent: body };
    }
    console.error('[mcp] tool failed', err);
    return { isError: true, content: [{ type: 'text', text: 'Internal failure while reading the data; please retry.' }] };
  }
}

const UNAVAILABLE: DataState = { status: 'unavailable', as_of: null, source: null, age_seconds: null };

/** "fresh as of …", "STALE (… s old, upstream down): as of …" or "unavailable". */
export function freshness(state: DataState): string {
  if (state.status === 'unavailable') return 'unavailable';
  if (state.status === 'stale') return `STALE: last real value as of ${state.as_of}, ${state.age_seconds} s old (upstream down)`;
  return `fresh, as of ${state.as_of}`;
}

export function fmt(n: number | null | undefined, digits = 2): string {
  return n === null || n === undefined ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: digits });
}
