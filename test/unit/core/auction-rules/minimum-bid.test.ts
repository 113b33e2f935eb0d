import { describe, expect, it } from 'vitest';
import { dutchPrice, minimumNextBid } from '../../../../src/core/auction-rules/index.js';
import { MoneyError, U64_MAX } from '../../../../src/core/money.js';
import { ALICE, makeAuction, SOL, START, withTopBid } from '../auction-fixture.js';

describe('minimumNextBid', () => {
  it.each(['standard', 'reserve'] as const)(
    '%s: the starting price first, then top bid + increment',
    (auctionType) => {
      const a = makeAuction({ auctionType, startingPrice: 2n * SOL, minIncrement: SOL / 10n });
      expect(minimumNextBid(a, START)).toBe(2n * SOL);
      expect(minimumNextBid(withTopBid(a, ALICE, 2n * SOL), START)).toBe(2_100_000_000n);
      expect(minimumNextBid(withTopBid(a, ALICE, 2_500_000_000n), START)).toBe(2_600_000_000n);
    },
  );

  it('with a zero increment the next bid must at least match the top bid', () => {
    const a = withTopBid(makeAuction({ minIncrement: 0n }), ALICE, 3n * SOL);
    expect(minimumNextBid(a, START)).toBe(3n * SOL);
  });

  it('refuses to overflow u64', () => {
    const a = withTopBid(makeAuction({ minIncrement: 2n }), ALICE, U64_MAX - 1n);
    expect(() => minimumNextBid(a, START)).toThrow(MoneyError);
    expect(minimumNextBid({ ...a, minIncrement: 1n }, START)).toBe(U64_MAX);
  });

  it('dutch: the current Dutch price', () => {
    const a = makeAuction({ auctionType: 'dutch', startingPrice: 10n * SOL, dutchFloor: 2n * SOL });
    expect(minimumNextBid(a, START)).toBe(10n * SOL);
    expect(minimumNextBid(a, START + 1_800n)).toBe(6n * SOL);
    expect(minimumNextBid(a, START + 7n)).toBe(dutchPrice(a, START + 7n));
  });

  it('buy_now: the buy-now price', () => {
    const a = makeAuction({ auctionType: 'buy_now', buyNowPrice: 5n * SOL });
    expect(minimumNextBid(a, START)).toBe(5n * SOL);
  });
});
