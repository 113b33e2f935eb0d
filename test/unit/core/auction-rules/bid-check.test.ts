import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BidCheck, checkBid, minimumNextBid } from '../../../../src/core/auction-rules/index.js';
import { U64_MAX } from '../../../../src/core/money.js';
import type { AuctionAccount } from '../../../../src/core/program/auction-account.js';
import { ALICE, BOB, END, makeAuction, SELLER, SOL, START, withTopBid } from '../auction-fixture.js';

const standard = makeAuction({ startingPrice: 2n * SOL, minIncrement: SOL / 10n });
const withBid = withTopBid(standard, ALICE, 2_500_000_000n);
const dutch = makeAuction({ auctionType: 'dutch', startingPrice: 10n * SOL, dutchFloor: 2n * SOL });
const buyNow = makeAuction({ auctionType: 'buy_now', buyNowPrice: 5n * SOL });
const mid = START + 1_800n;

describe('checkBid', () => {
  it.each<[string, AuctionAccount, { amount: bigint; now: bigint; bidder?: typeof BOB }, BidCheck]>([
    [
      'settled',
      { ...standard, state: 'settled' },
      { amount: 3n * SOL, now: mid },
      { ok: false, reason: 'not_active' },
    ],
    [
      'cancelled',
      { ...standard, state: 'cancelled' },
      { amount: 3n * SOL, now: mid },
      { ok: false, reason: 'not_active' },
    ],
    [
      'before the start',
      standard,
      { amount: 3n * SOL, now: START - 1n },
      { ok: false, reason: 'not_started' },
    ],
    [
      'at the start',
      standard,
      { amount: 3n * SOL, now: START },
      { ok: true, price: 3n * SOL, settlesNow: false },
    ],
    [
      'one second before the end',
      standard,
      { amount: 2n * SOL, now: END - 1n },
      { ok: true, price: 2n * SOL, settlesNow: false },
    ],
    ['at the end', standard, { amount: 3n * SOL, now: END }, { ok: false, reason: 'ended' }],
    [
      'the seller',
      standard,
      { amount: 3n * SOL, now: mid, bidder: SELLER },
      { ok: false, reason: 'seller_bid' },
    ],
    [
      'the seller on an ended auction: ended first',
      standard,
      { amount: 3n * SOL, now: END, bidder: SELLER },
      { ok: false, reason: 'ended' },
    ],
    [
      'first bid at the starting price',
      standard,
      { amount: 2n * SOL, now: mid },
      { ok: true, price: 2n * SOL, settlesNow: false },
    ],
    [
      'first bid below the starting price',
      standard,
      { amount: 2n * SOL - 1n, now: mid },
      { ok: false, reason: 'too_low', minimum: 2n * SOL },
    ],
    [
      'next bid at top + increment',
      withBid,
      { amount: 2_600_000_000n, now: mid },
      { ok: true, price: 2_600_000_000n, settlesNow: false },
    ],
    [
      'next bid one lamport short',
      withBid,
      { amount: 2_599_999_999n, now: mid },
      { ok: false, reason: 'too_low', minimum: 2_600_000_000n },
    ],
    [
      'the top bidder raising',
      withBid,
      { amount: 3n * SOL, now: mid, bidder: ALICE },
      { ok: true, price: 3n * SOL, settlesNow: false },
    ],
    [
      'a negative amount',
      standard,
      { amount: -1n, now: mid },
      { ok: false, reason: 'too_low', minimum: 2n * SOL },
    ],
    [
      'past u64 nothing can follow',
      withTopBid(standard, ALICE, U64_MAX),
      { amount: U64_MAX, now: mid },
      { ok: false, reason: 'too_low' },
    ],
    [
      'dutch: pays the current price, not the maximum',
      dutch,
      { amount: 9n * SOL, now: mid },
      { ok: true, price: 6n * SOL, settlesNow: true },
    ],
    [
      'dutch: exactly the current price',
      dutch,
      { amount: 6n * SOL, now: mid },
      { ok: true, price: 6n * SOL, settlesNow: true },
    ],
    [
      'dutch: a maximum below the current price',
      dutch,
      { amount: 6n * SOL - 1n, now: mid },
      { ok: false, reason: 'too_low', minimum: 6n * SOL },
    ],
    [
      'buy_now: pays the buy-now price',
      buyNow,
      { amount: 7n * SOL, now: mid },
      { ok: true, price: 5n * SOL, settlesNow: true },
    ],
    [
      'buy_now: below the price',
      buyNow,
      { amount: 5n * SOL - 1n, now: mid },
      { ok: false, reason: 'too_low', minimum: 5n * SOL },
    ],
  ])('%s', (_, a, { amount, now, bidder = BOB }, expected) => {
    expect(checkBid(a, { bidder, amount, now })).toEqual(expected);
  });

  it('accepts exactly the amounts at or above the minimum while the auction is open', () => {
    const auctions = fc.record({
      auctionType: fc.constantFrom('standard', 'reserve', 'dutch', 'buy_now' as const),
      startingPrice: fc.bigInt({ min: 1n, max: 100n * SOL }),
      minIncrement: fc.bigInt({ min: 0n, max: SOL }),
      topBid: fc.option(fc.bigInt({ min: 1n, max: 100n * SOL }), { nil: null }),
      floorShare: fc.bigInt({ min: 0n, max: 100n }),
    });
    fc.assert(
      fc.property(
        auctions,
        fc.bigInt({ min: START, max: END - 1n }),
        fc.bigInt({ min: 0n, max: 200n * SOL }),
        (p, now, amount) => {
          const base = makeAuction({
            auctionType: p.auctionType,
            startingPrice: p.startingPrice,
            minIncrement: p.minIncrement,
            dutchFloor: (p.startingPrice * p.floorShare) / 100n,
            buyNowPrice: p.startingPrice,
          });
          const a =
            p.topBid === null || p.auctionType === 'dutch' || p.auctionType === 'buy_now'
              ? base
              : withTopBid(base, ALICE, p.topBid);
          const minimum = minimumNextBid(a, now);
          const result = checkBid(a, { bidder: BOB, amount, now });
          if (amount < minimum) {
            expect(result).toEqual({ ok: false, reason: 'too_low', minimum });
          } else {
            const english = p.auctionType === 'standard' || p.auctionType === 'reserve';
            expect(result).toEqual({ ok: true, price: english ? amount : minimum, settlesNow: !english });
          }
        },
      ),
    );
  });
});
