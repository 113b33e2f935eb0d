import type { ErrorCode } from '../core/errors.js';

/** Rate-limit state of one route as the server reported it (API.md's headers). */
export interface RateLimitInfo {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the server's minute bucket ends. */
  readonly resetSeconds: number;
}

/**
 * A non-2xx answer of the REST API, or no answer at all (`status` 0, code `UNREACHABLE`):
 * the spec's code and message, plus what a caller needs to react (details, Retry-After).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'UNREACHABLE',
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

export function isApiError(e: unknown, code?: ApiError['code']): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}
