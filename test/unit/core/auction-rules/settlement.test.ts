import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  feeSplit,
  type SettlementOutcome,
  settlementOutcome,
} from '../../../../src/core/auction-rules/index.js';
import { U64_MAX } from '../../../../src/core/money.js';
import type { AuctionAccount } from '../../../../src/core/program/auction-account.js';
import { ALICE, END, makeAuction, SOL, START, withTopBid } from '../auction-fixture.js';

const standard = makeAuction();
const sold = withTopBid(standard, ALICE, 3n * SOL);
const reserve = makeAuction({ auctionType: 'reserve', reserveCommitment: new Uint8Array(32).fill(7) });
const reserveBid = withTopBid(reserve, ALICE, 3n * SOL);

describe('settlementOutcome', () => {
  it.each<[string, AuctionAccount, bigint, bigint | null, SettlementOutcome]>([
    ['before the end', sold, END - 1n, null, { kind: 'not_ended' }],
    ['already settled', { ...sold, state: 'settled' }, END, null, { kind: 'not_active' }],
    ['cancelled', { ...standard, state: 'cancelled' }, END, null, { kind: 'not_active' }],
    ['no bids', standard, END, null, { kind: 'no_bids' }],
    ['a top bid at the end', sold, END, null, { kind: 'sold', winner: ALICE, price: 3n * SOL }],
    [
      'a reveal on an auction without reserve is ignored',
      sold,
      END + 1n,
      10n * SOL,
      { kind: 'sold', winner: ALICE, price: 3n * SOL },
    ],
    ['reserve met exactly', reserveBid, END, 3n * SOL, { kind: 'sold', winner: ALICE, price: 3n * SOL }],
    [
      'reserve not met',
      reserveBid,
      END,
      3n * SOL + 1n,
      { kind: 'reserve_not_met', topBidder: ALICE, topBid: 3n * SOL },
    ],
    ['reserve not revealed', reserveBid, END, null, { kind: 'reserve_not_revealed' }],
    ['reserve auction without bids', reserve, END, 3n * SOL, { kind: 'no_bids' }],
    [
      'dutch that nobody bought',
      makeAuction({ auctionType: 'dutch', dutchFloor: SOL }),
      END,
      null,
      { kind: 'no_bids' },
    ],
  ])('%s', (_, a, now, revealed, outcome) => {
    expect(settlementOutcome(a, now, revealed)).toEqual(outcome);
  });

  it('is not_ended for every time before the end, whatever the bids', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: START - 10_000n, max: END - 1n }), (now) => {
        expect(settlementOutcome(sold, now, null)).toEqual({ kind: 'not_ended' });
      }),
    );
  });
});

describe('feeSplit', () => {
  it.each<[bigint, number, bigint, bigint]>([
    [10n * SOL, 0, 0n, 10n * SOL],
    [10n * SOL, 250, 250_000_000n, 9_750_000_000n],
    [10n * SOL, 10_000, 10n * SOL, 0n],
    [399n, 250, 9n, 390n], // 9.975 lamports: rounded down
    [U64_MAX, 10_000, U64_MAX, 0n],
  ])('%s at %s bps → fee %s, seller %s', (price, bps, fee, sellerProceeds) => {
    expect(feeSplit(price, bps)).toEqual({ fee, sellerProceeds });
  });

  it('rejects fees outside 0..10000 bps and negative prices', () => {
    expect(() => feeSplit(SOL, -1)).toThrow(/basis points/);
    expect(() => feeSplit(SOL, 10_001)).toThrow(/basis points/);
    expect(() => feeSplit(SOL, 2.5)).toThrow(/basis points/);
    expect(() => feeSplit(-1n, 0)).toThrow(/negative/);
  });

  it('splits every price exactly, the fee rounded down', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), fc.integer({ min: 0, max: 10_000 }), (price, bps) => {
        const { fee, sellerProceeds } = feeSplit(price, bps);
        expect(fee + sellerProceeds).toBe(price);
        expect(fee * 10_000n).toBeLessThanOrEqual(price * BigInt(bps));
        expect((fee + 1n) * 10_000n).toBeGreaterThan(price * BigInt(bps));
      }),
    );
  });
});
