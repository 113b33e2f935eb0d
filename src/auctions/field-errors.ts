/** 400s that name the offending request field and the rule it broke. */
import { AppError } from '../core/errors.js';
import { MoneyError, solToLamports } from '../core/money.js';

export function invalidField(
  field: string,
  rule: string,
  details: Record<string, unknown> = {},
): AppError<'INVALID_REQUEST'> {
  return new AppError('INVALID_REQUEST', `invalid request: ${field}: ${rule}`, {
    details: { field, ...details },
  });
}

/** SOL (number) → lamports exactly; more than 9 decimals or past u64 is a 400 naming `field`. */
export function lamportsOf(field: string, sol: number): bigint {
  try {
    return solToLamports(sol);
  } catch (e) {
    if (e instanceof MoneyError) throw invalidField(field, e.message);
    throw e;
  }
}
