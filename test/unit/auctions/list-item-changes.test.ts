import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auctionListItemView, listItemViewChangesAt } from '../../../src/auctions/auction-view.js';
import { statusChangesAt } from '../../../src/core/auction-rules/index.js';
import { effectiveMetadata } from '../../../src/indexer/auction-document.js';
import { addressOf, END, makeAuction, START } from '../core/auction-fixture.js';
import { shortAuction } from './short-auction.js';

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
    fc.assert(
      fc.property(shortAuction, (a) => {
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
