import { ApiError, type ErrorStatus } from '../core/errors';
import type { DataState, ErrorBody } from '../schemas/common';

// The route wrapper's one exit for errors: an ApiError (lib/core/errors.ts) becomes the documented
// `{error, ...}` body. Anything else that escapes a handler is a bug: logged, and answered with a
// generic 503, never a stack trace and never a 500 page.

/** The documented error body of `err` (an unexpected error becomes a generic 503). */
export function errorBody(err: unknown, state: DataState): { status: ErrorStatus; body: ErrorBody; headers: Record<string, string> } {
  const known = err instanceof ApiError ? err : null;
  if (!known) console.error('[api] unexpected error', err);
  const { data_state, ...extra } = known?.extra ?? {};
  return {
    status: known?.status ?? 503,
    headers: known?.headers ?? {},
    body: {
      error: known?.message ?? 'Temporary failure, please retry shortly',
      ...extra,
      data_state: (data_state as DataState | undefined) ?? state,
      updated_at: new Date().toISOString(),
    },
  };
}
