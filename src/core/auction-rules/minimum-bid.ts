import { checkedAddU64 } from '../money.js';
import type { AuctionAccount } from '../program/auction-account.js';
import { dutchPrice } from './dutch-price.js';

export type BidPricing = Pick<
  AuctionAccount,
  | 'auctionType'
  | 'startingPrice'
  | 'minIncrement'
  | 'buyNowPrice'
  | 'dutchFloor'
  | 'startTs'
  | 'endTs'
  | 'topBidder'
  | 'topBid'
>;

/**
 * The smallest amount a bid may carry at chain time `now`, in lamports.
 * English (standard/reserve): the starting price for the first bid, then top bid + increment
 * (throws MoneyError 'overflow' past u64, where no bid can follow). Dutch: the current price.
 * Buy-now: the buy-now price.
 */
export function minimumNextBid(a: BidPricing, now: bigint): bigint {
  switch (a.auctionType) {
    case 'standard':
    case 'reserve':
      return a.topBidder === null ? a.startingPrice : checkedAddU64(a.topBid, a.minIncrement);
    case 'dutch':
      return dutchPrice(a, now);
    case 'buy_now':
      return a.buyNowPrice;
  }
}
