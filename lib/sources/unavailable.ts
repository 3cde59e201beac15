import type { DataState, ErrorBody } from '../schemas/common';

// Missing data is a value, not an exception: a core function that has nothing real to give returns
// this body (the REST 503 body) with the state that explains it. Only the REST edge turns it into a
// 503; MCP tools, widgets and pages read it as an ordinary answer.

export type Unavailable = Pick<ErrorBody, 'error' | 'data_state' | 'updated_at'>;

export function unavailable(error: string, data_state: DataState, now = Date.now()): Unavailable {
  return { error, data_state, updated_at: new Date(now).toISOString() };
}

export function isUnavailable<T extends object>(answer: T | Unavailable): answer is Unavailable {
  return 'error' in answer;
}

/** The state of a value never seen: no time, no source. */
export const NOTHING: DataState = { status: 'unavailable', as_of: null, source: null, age_seconds: null };
