/**
 * The service's closed set of public error codes (the API spec's). New codes need a spec change;
 * finer distinctions go in `details.reason`, never in `code`.
 */

export const ERROR_CODES = [
  'UNAUTHORIZED',
  'INVALID_REQUEST',
  'NOT_FOUND',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'BID_TOO_LOW',
  'AUCTION_ENDED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

type GenericDetails = Readonly<Record<string, unknown>> & { readonly reason?: string };

/** What `details` carries for each code; `isAppError(e, code)` narrows to it. */
export interface ErrorDetailsByCode {
  UNAUTHORIZED: GenericDetails;
  INVALID_REQUEST: GenericDetails & { readonly field?: string };
  NOT_FOUND: GenericDetails;
  RATE_LIMITED: GenericDetails & { readonly retryAfterSeconds: number };
  INTERNAL_ERROR: GenericDetails;
  /** The current minimum in SOL, as the message states it. */
  BID_TOO_LOW: GenericDetails & { readonly minimumBid: number };
  /** The auction's status when the bid came in ('upcoming', 'ended', 'cancelled', 'sold'). */
  AUCTION_ENDED: GenericDetails & { readonly status: string };
}

export type DetailsFor<C extends ErrorCode> = ErrorDetailsByCode[C];

export interface AppErrorOptions<C extends ErrorCode> {
  /** Overrides the code's default status (e.g. 403 for UNAUTHORIZED on a read-only key). */
  readonly httpStatus?: number;
  readonly details?: DetailsFor<C>;
  readonly cause?: unknown;
}

export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'AppError';
  readonly code: C;
  readonly httpStatus: number | undefined;
  readonly details: DetailsFor<C> | undefined;

  constructor(code: C, message: string, options: AppErrorOptions<C> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.httpStatus = options.httpStatus;
    this.details = options.details;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * True for an AppError (optionally of one code). Checks by name and code rather than only
 * `instanceof`, so an error from a second copy of this module is still recognised.
 */
export function isAppError<C extends ErrorCode>(e: unknown, code?: C): e is AppError<C> {
  if (!(e instanceof Error) || e.name !== 'AppError') return false;
  const actual = (e as { code?: unknown }).code;
  return isErrorCode(actual) && (code === undefined || actual === code);
}
