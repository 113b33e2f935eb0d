/**
 * Money: lamports (`bigint`, u64) inside the service, SOL numbers only at the API edge.
 * Conversions go through decimal strings so that no float multiply ever touches an amount.
 */

export type Lamports = bigint;

export const LAMPORTS_PER_SOL = 1_000_000_000n;
export const SOL_DECIMALS = 9;
export const U64_MAX = (1n << 64n) - 1n;

export type MoneyErrorReason =
  | 'not_a_number'
  | 'not_finite'
  | 'negative'
  | 'too_many_decimals'
  | 'too_large'
  | 'invalid_format'
  | 'overflow';

export class MoneyError extends RangeError {
  override readonly name = 'MoneyError';
  constructor(
    readonly reason: MoneyErrorReason,
    message: string,
  ) {
    super(message);
  }
}

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const EXPONENT_DECIMAL = /^(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/;

/** Rewrites `1.5e-7` / `1e+21` as a plain decimal string, digit for digit. */
function expandExponent(text: string): string {
  const m = EXPONENT_DECIMAL.exec(text);
  if (!m) return text;
  const [, int = '', frac = '', exp = '0'] = m;
  const digits = int + frac;
  const exponent = Number(exp);
  // Bounds the zero padding below; no u64 lamport amount needs an exponent this large.
  if (exponent > 1000) {
    throw new MoneyError('too_large', `amount exceeds the u64 lamport maximum: ${text} SOL`);
  }
  if (exponent < -1000) {
    throw new MoneyError(
      'too_many_decimals',
      `amount must have at most ${SOL_DECIMALS} decimals, got ${text}`,
    );
  }
  const pointAt = int.length + exponent;
  if (pointAt <= 0) return `0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return digits + '0'.repeat(pointAt - digits.length);
  return `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

function decimalText(sol: number | string): string {
  if (typeof sol === 'number') {
    if (Number.isNaN(sol)) throw new MoneyError('not_a_number', 'amount must be a number (got NaN)');
    if (!Number.isFinite(sol)) throw new MoneyError('not_finite', 'amount must be finite');
    if (sol < 0) throw new MoneyError('negative', 'amount must not be negative');
    // String(n) is the shortest decimal that round-trips to n: the value the caller meant.
    return String(sol);
  }
  if (typeof sol !== 'string') {
    throw new MoneyError('not_a_number', 'amount must be a number or a decimal string');
  }
  if (sol.startsWith('-')) throw new MoneyError('negative', 'amount must not be negative');
  return sol;
}

/**
 * Converts SOL to lamports exactly. Accepts a number (2.5, 1e-9) or a decimal string ("2.5").
 * Throws MoneyError for NaN, infinities, negatives, more than 9 decimals, or more than u64 lamports.
 */
export function solToLamports(sol: number | string): Lamports {
  const text = decimalText(sol);
  const m = PLAIN_DECIMAL.exec(expandExponent(text));
  if (!m) throw new MoneyError('invalid_format', `amount must be a decimal number of SOL, got "${text}"`);
  const [, int = '0', rawFrac = ''] = m;
  const frac = rawFrac.replace(/0+$/, '');
  if (frac.length > SOL_DECIMALS) {
    throw new MoneyError(
      'too_many_decimals',
      `amount must have at most ${SOL_DECIMALS} decimals (1 lamport = 0.000000001 SOL), got ${text}`,
    );
  }
  const lamports = BigInt(int) * LAMPORTS_PER_SOL + BigInt(frac.padEnd(SOL_DECIMALS, '0'));
  if (lamports > U64_MAX) {
    throw new MoneyError('too_large', `amount exceeds the u64 lamport maximum: ${text} SOL`);
  }
  return lamports;
}

function assertU64(lamports: bigint): void {
  if (lamports < 0n) throw new MoneyError('negative', `lamports must not be negative, got ${lamports}`);
  if (lamports > U64_MAX) throw new MoneyError('too_large', `lamports exceed u64: ${lamports}`);
}

/** "2.6", "0.000000001", "3": the exact SOL value of `lamports`, without trailing zeros. */
export function formatSol(lamports: Lamports): string {
  assertU64(lamports);
  const whole = lamports / LAMPORTS_PER_SOL;
  const frac = (lamports % LAMPORTS_PER_SOL).toString().padStart(SOL_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** SOL as a JS number: the double nearest to the exact decimal value (exact when it has ≤ 15 significant digits). */
export function lamportsToSol(lamports: Lamports): number {
  return Number(formatSol(lamports));
}

/** `a + b`, failing like a checked u64 add on chain instead of growing past u64. */
export function checkedAddU64(a: Lamports, b: Lamports): Lamports {
  assertU64(a);
  assertU64(b);
  const sum = a + b;
  if (sum > U64_MAX) throw new MoneyError('overflow', `u64 overflow: ${a} + ${b}`);
  return sum;
}
