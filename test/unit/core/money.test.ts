import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkedAddU64,
  formatSol,
  LAMPORTS_PER_SOL,
  lamportsToSol,
  MoneyError,
  type MoneyErrorReason,
  solToLamports,
  U64_MAX,
} from '../../../src/core/money.js';

const u64 = fc.bigInt({ min: 0n, max: U64_MAX });

function reasonOf(fn: () => unknown): MoneyErrorReason | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (e) {
    if (e instanceof MoneyError) return e.reason;
    throw e;
  }
}

describe('solToLamports', () => {
  it.each<[number | string, bigint]>([
    [2.5, 2_500_000_000n],
    ['2.5', 2_500_000_000n],
    [0, 0n],
    ['0', 0n],
    [-0, 0n],
    [0.000000001, 1n],
    [1e-9, 1n],
    ['1e-9', 1n],
    [1.5e-7, 150n],
    ['2.500000000', 2_500_000_000n],
    ['2.5000000000000', 2_500_000_000n],
    [100, 100n * LAMPORTS_PER_SOL],
    [1e10, 10_000_000_000n * LAMPORTS_PER_SOL],
    [123456.789, 123_456_789_000_000n],
    ['18446744073.709551615', U64_MAX],
    ['1E+3', 1_000n * LAMPORTS_PER_SOL],
  ])('%s SOL is %s lamports', (sol, lamports) => {
    expect(solToLamports(sol)).toBe(lamports);
  });

  it.each<[unknown, MoneyErrorReason]>([
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_finite'],
    [Number.NEGATIVE_INFINITY, 'not_finite'],
    [-1, 'negative'],
    [-1e-9, 'negative'],
    ['-2.5', 'negative'],
    [1.0000000001, 'too_many_decimals'],
    ['0.0000000001', 'too_many_decimals'],
    [1e-10, 'too_many_decimals'],
    // 0.1 + 0.2 is 0.30000000000000004: float arithmetic is refused, not rounded.
    [0.1 + 0.2, 'too_many_decimals'],
    ['18446744073.709551616', 'too_large'],
    [1e21, 'too_large'],
    ['1e400', 'too_large'],
    ['', 'invalid_format'],
    ['abc', 'invalid_format'],
    ['1,5', 'invalid_format'],
    [' 1', 'invalid_format'],
    ['0x10', 'invalid_format'],
    ['+1', 'invalid_format'],
    ['.5', 'invalid_format'],
    ['1.', 'invalid_format'],
    [null, 'not_a_number'],
    [5n, 'not_a_number'],
  ])('rejects %s (%s)', (sol, reason) => {
    expect(reasonOf(() => solToLamports(sol as number))).toBe(reason);
  });

  it('names the rule in its message', () => {
    expect(() => solToLamports(1e-10)).toThrow(/at most 9 decimals/);
    expect(() => solToLamports(-1)).toThrow(/must not be negative/);
    expect(() => solToLamports('2e20')).toThrow(/u64/);
  });

  it('reads every decimal string with at most 9 decimals exactly', () => {
    const decimal = fc.record({
      whole: fc.bigInt({ min: 0n, max: U64_MAX / LAMPORTS_PER_SOL - 1n }),
      frac: fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 9 }),
    });
    fc.assert(
      fc.property(decimal, ({ whole, frac }) => {
        const text = frac ? `${whole}.${frac}` : `${whole}`;
        const lamports = solToLamports(text);
        expect(lamports).toBe(whole * LAMPORTS_PER_SOL + BigInt(frac.padEnd(9, '0')));
        const normalized = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
        expect(formatSol(lamports)).toBe(normalized);
      }),
    );
  });

  it('rejects every amount with more than 9 significant decimals', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 10 });
    fc.assert(
      fc.property(fc.nat(1000), digits, fc.constantFrom(...'123456789'), (whole, middle, last) => {
        const text = `${whole}.${'0'.repeat(9 - Math.min(9, middle.length))}${middle}${last}`;
        expect(reasonOf(() => solToLamports(text))).toBe('too_many_decimals');
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 6 }), (m) => {
        fc.pre(m % 10 !== 0);
        expect(reasonOf(() => solToLamports(m / 1e10))).toBe('too_many_decimals');
      }),
    );
  });

  it('turns every accepted number back into the same number', () => {
    const solNumbers = fc.oneof(
      fc.double({ min: 0, max: 2e10, noNaN: true }),
      fc.integer({ min: 0, max: 2 ** 40 }).map((n) => n / 1000),
      u64.map(lamportsToSol),
    );
    fc.assert(
      fc.property(solNumbers, (sol) => {
        let lamports: bigint;
        try {
          lamports = solToLamports(sol);
        } catch (e) {
          expect((e as MoneyError).reason).toMatch(/too_many_decimals|too_large/);
          return;
        }
        expect(lamportsToSol(lamports)).toBe(sol);
      }),
    );
  });
});

describe('lamportsToSol / formatSol', () => {
  it.each<[bigint, string, number]>([
    [0n, '0', 0],
    [1n, '0.000000001', 1e-9],
    [2_600_000_000n, '2.6', 2.6],
    [3n * LAMPORTS_PER_SOL, '3', 3],
    [1_000_000_001n, '1.000000001', 1.000000001],
    [U64_MAX, '18446744073.709551615', Number('18446744073.709551615')],
  ])('%s lamports is %s SOL', (lamports, text, sol) => {
    expect(formatSol(lamports)).toBe(text);
    expect(lamportsToSol(lamports)).toBe(sol);
  });

  it('rejects amounts outside u64', () => {
    expect(reasonOf(() => formatSol(-1n))).toBe('negative');
    expect(reasonOf(() => lamportsToSol(U64_MAX + 1n))).toBe('too_large');
  });

  it('round-trips every u64 through the decimal string', () => {
    fc.assert(
      fc.property(u64, (l) => {
        expect(solToLamports(formatSol(l))).toBe(l);
      }),
    );
  });

  it('round-trips every u64 whose SOL value has at most 15 significant digits (exact as a double)', () => {
    const fifteenDigits = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.nat(19))
      .map(([mantissa, zeros]) => mantissa * 10n ** BigInt(zeros))
      .filter((l) => l <= U64_MAX);
    fc.assert(
      fc.property(fifteenDigits, (l) => {
        expect(solToLamports(lamportsToSol(l))).toBe(l);
      }),
    );
  });

  it('never drifts by more than a double rounding for any u64', () => {
    fc.assert(
      fc.property(u64, (l) => {
        let back: bigint;
        try {
          back = solToLamports(lamportsToSol(l));
        } catch (e) {
          // A SOL number near u64 can round up past it, or need more digits than a lamport has.
          expect((e as MoneyError).reason).toMatch(/too_many_decimals|too_large/);
          return;
        }
        const drift = back > l ? back - l : l - back;
        expect(drift * 2n ** 52n).toBeLessThanOrEqual(l);
      }),
    );
  });
});

describe('checkedAddU64', () => {
  it('adds within u64 and refuses to overflow', () => {
    expect(checkedAddU64(U64_MAX - 1n, 1n)).toBe(U64_MAX);
    expect(reasonOf(() => checkedAddU64(U64_MAX, 1n))).toBe('overflow');
    expect(reasonOf(() => checkedAddU64(-1n, 1n))).toBe('negative');
  });
});
