// One error type for everything a client can be told, thrown by any layer (a bad argument, a missing
// secret, a store that does not answer). The web layer turns it into the documented `{error, ...}`
// body (lib/http/errors.ts); MCP turns it into an `isError` result naming the valid values.

export type ErrorStatus = 400 | 401 | 404 | 405 | 413 | 414 | 429 | 503;

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
