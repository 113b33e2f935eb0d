import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auctionListItemView, listItemViewChangesAt } from '../../../src/auctions/auction-view.js';
import { statusChangesAt } from '../../../src/core/auction-rules/index.js';
import { AUCTION_STATES, AUCTION_TYPES } from '../../../src/core/program/auction-account.js';
import { effectiveMetadata } from '../../../src/indexer/auction-document.js';
import { ALICE, addressOf, END, makeAuction, SOL, START } from '../core/auction-fixture.js';

describe('when a list item may change with chain time', () => {
  it('statusChangesAt: the start, then the end, then never', () => {
    const a = makeAuction();
    expect(statusChangesAt(a, START - 10n)).toBe(START);
    expect(statusChangesAt(a, START)).toBe(END);
    expect(statusChangesAt(a, END - 1n)).toBe(END);
    expect(statusChangesAt(a, END)).toBeNull();
    expect(statusChangesAt(makeAuction({ state: 'settled' }), START)).toBeNull();
    expect(statusChangesAt(makeAuction({ state: 'cancelled' }), START - 10n)).toBeNull();
  });

  it('the view stays the same over every second before listItemViewChangesAt, and differs there when not null', () => {
    // Short auctions around `now`, of every type and state, so that the walk crosses start, end
    // and a falling Dutch price.
    const account = fc
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
    fc.assert(
      fc.property(account, (a) => {
        const view = (now: bigint) =>
          auctionListItemView({
            address: addressOf(50),
            account: a,
            metadata: effectiveMetadata({}, a.domains),
            now,
            knownReserve: null,
          });
        const now = START;
        const changesAt = listItemViewChangesAt(a, now);
        const horizon = changesAt ?? now + 100n;
        expect(horizon).toBeGreaterThan(now);
        for (let t = now; t < horizon; t++) expect(view(t)).toEqual(view(now));
        // Not just "changes at some point": status or price is due to move exactly there, except
        // a Dutch price whose floor division holds it for a second (the key is then re-rendered once).
        if (changesAt !== null && a.auctionType !== 'dutch') expect(view(changesAt)).not.toEqual(view(now));
      }),
      { numRuns: 500 },
    );
  });
});
