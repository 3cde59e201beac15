// One error type for everything a client can be told: the route wrapper turns it into the
// documented `{error, ...}` body. Anything else that escapes a handler is a bug: logged, and
// answered with a generic 503, never a stack trace and never a 500 page.

export type ErrorStatus = 400 | 404 | 405 | 413 | 414 | 429 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 for a parameter outside its list, naming the valid values. */
export function invalidValue(name: string, value: string, valid: readonly string[]): ApiError {
  return new ApiError(400, `Invalid ${name}: ${value}. Valid values: ${valid.join(', ')}`, { valid: [...valid] });
}
