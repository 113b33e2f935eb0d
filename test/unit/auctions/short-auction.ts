import fc from 'fast-check';
import { AUCTION_STATES, AUCTION_TYPES } from '../../../src/core/program/auction-account.js';
import { ALICE, makeAuction, SOL, START } from '../core/auction-fixture.js';

/**
 * Short auctions around START, of every type and state, so that a walk over a few dozen seconds
 * crosses start, end and a falling Dutch price.
 */
export const shortAuction = fc
  .record({
    auctionType: fc.constantFrom(...AUCTION_TYPES),
    state: fc.constantFrom(...AUCTION_STATES),
    start: fc.integer({ min: -30, max: 30 }),
    length: fc.integer({ min: 1, max: 40 }),
    startingPrice: fc.integer({ min: 1, max: 50 }),
    floorShare: fc.integer({ min: 0, max: 100 }),
    bids: fc.integer({ min: 0, max: 3 }),
  })
  .map((r) => {
    const startingPrice = BigInt(r.startingPrice) * SOL;
    const startTs = START + BigInt(r.start);
    return makeAuction({
      auctionType: r.auctionType,
      state: r.state,
      startTs,
      endTs: startTs + BigInt(r.length),
      startingPrice,
      dutchFloor: r.auctionType === 'dutch' ? (startingPrice * BigInt(r.floorShare)) / 100n : 0n,
      buyNowPrice: r.auctionType === 'buy_now' ? startingPrice * 2n : 0n,
      bidCount: r.bids,
      topBidder: r.bids > 0 ? ALICE : null,
      topBid: r.bids > 0 ? startingPrice + SOL : 0n,
      settledAt: r.state === 'active' ? 0n : startTs + 1n,
    });
  });
