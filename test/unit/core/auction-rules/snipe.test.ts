import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySnipeRule } from '../../../../src/core/auction-rules/index.js';
import { AUCTION_TYPES, type AuctionAccount } from '../../../../src/core/program/auction-account.js';
import { END, makeAuction } from '../auction-fixture.js';

const sniping = (overrides: Partial<AuctionAccount> = {}) =>
  makeAuction({ snipeEnabled: true, snipeWindowSeconds: 60, snipeExtensionSeconds: 300, ...overrides });

describe('applySnipeRule', () => {
  it.each<[string, AuctionAccount, bigint, boolean]>([
    ['disabled', sniping({ snipeEnabled: false }), END - 10n, false],
    ['just outside the window', sniping(), END - 61n, false],
    ['at the window edge (end − now = window)', sniping(), END - 60n, true],
    ['inside the window', sniping(), END - 1n, true],
    ['at the end (bidding closed)', sniping(), END, false],
    ['after the end', sniping(), END + 1n, false],
    ['a reserve auction', sniping({ auctionType: 'reserve' }), END - 1n, true],
    ['a dutch auction (settles at once)', sniping({ auctionType: 'dutch' }), END - 1n, false],
    ['a buy-now auction (settles at once)', sniping({ auctionType: 'buy_now' }), END - 1n, false],
    ['a zero extension', sniping({ snipeExtensionSeconds: 0 }), END - 1n, false],
  ])('%s', (_, a, now, extended) => {
    expect(applySnipeRule(a, now)).toEqual({
      extended,
      previousEndTs: END,
      newEndTs: extended ? END + BigInt(a.snipeExtensionSeconds) : END,
    });
  });

  it('extends exactly when an English bid lands inside the window', () => {
    const settings = fc.record({
      auctionType: fc.constantFrom(...AUCTION_TYPES),
      snipeEnabled: fc.boolean(),
      snipeWindowSeconds: fc.nat(3_600),
      snipeExtensionSeconds: fc.nat(3_600),
      endTs: fc.bigInt({ min: 0n, max: 2n ** 40n }),
    });
    fc.assert(
      fc.property(settings, fc.bigInt({ min: -4_000n, max: 4_000n }), (s, offset) => {
        const now = s.endTs + offset;
        const result = applySnipeRule(s, now);
        const english = s.auctionType === 'standard' || s.auctionType === 'reserve';
        const left = s.endTs - now;
        const expected =
          english &&
          s.snipeEnabled &&
          s.snipeExtensionSeconds > 0 &&
          left > 0n &&
          left <= s.snipeWindowSeconds;
        expect(result.extended).toBe(expected);
        expect(result.previousEndTs).toBe(s.endTs);
        expect(result.newEndTs - s.endTs).toBe(expected ? BigInt(s.snipeExtensionSeconds) : 0n);
      }),
    );
  });
});
