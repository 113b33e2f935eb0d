import type { AuctionAccount } from '../program/auction-account.js';

export type SnipeSettings = Pick<
  AuctionAccount,
  'auctionType' | 'endTs' | 'snipeEnabled' | 'snipeWindowSeconds' | 'snipeExtensionSeconds'
>;

export interface SnipeOutcome {
  readonly extended: boolean;
  readonly previousEndTs: bigint;
  readonly newEndTs: bigint;
}

/**
 * Anti-sniping: a bid accepted at `now` with at most `snipeWindowSeconds` left moves the end by
 * `snipeExtensionSeconds`. Only English auctions (standard, reserve) extend: Dutch and buy-now
 * bids end the auction at once.
 */
export function applySnipeRule(a: SnipeSettings, now: bigint): SnipeOutcome {
  const previousEndTs = a.endTs;
  const english = a.auctionType === 'standard' || a.auctionType === 'reserve';
  const inWindow = now < a.endTs && a.endTs - now <= BigInt(a.snipeWindowSeconds);
  if (!english || !a.snipeEnabled || !inWindow || a.snipeExtensionSeconds <= 0) {
    return { extended: false, previousEndTs, newEndTs: previousEndTs };
  }
  return { extended: true, previousEndTs, newEndTs: previousEndTs + BigInt(a.snipeExtensionSeconds) };
}
