import type { Address } from '../address.js';
import { MoneyError } from '../money.js';
import type { AuctionAccount } from '../program/auction-account.js';
import { dutchPrice } from './dutch-price.js';
import { type BidPricing, minimumNextBid } from './minimum-bid.js';

export interface BidAttempt {
  readonly bidder: Address;
  /** Lamports. For Dutch, the most the bidder will pay. */
  readonly amount: bigint;
  /** Chain time, Unix seconds. */
  readonly now: bigint;
}

export type BidRejection = 'not_active' | 'not_started' | 'ended' | 'seller_bid' | 'too_low';

export type BidCheck =
  /** `price` is what moves into escrow (English) or to the seller (Dutch / buy-now, which settle at once). */
  | { readonly ok: true; readonly price: bigint; readonly settlesNow: boolean }
  /** `minimum` accompanies 'too_low' whenever a bid could still meet it. */
  | { readonly ok: false; readonly reason: BidRejection; readonly minimum?: bigint };

export type BiddableAuction = BidPricing & Pick<AuctionAccount, 'state' | 'seller'>;

/**
 * The bid rules, in the order the API reports them: the auction is open (not settled/cancelled,
 * started, not ended), the bidder is not the seller, and the amount meets the minimum.
 * The on-chain program and the API both decide through this one function.
 */
export function checkBid(a: BiddableAuction, bid: BidAttempt): BidCheck {
  if (a.state !== 'active') return { ok: false, reason: 'not_active' };
  if (bid.now < a.startTs) return { ok: false, reason: 'not_started' };
  if (bid.now >= a.endTs) return { ok: false, reason: 'ended' };
  if (bid.bidder === a.seller) return { ok: false, reason: 'seller_bid' };

  let minimum: bigint;
  try {
    minimum = minimumNextBid(a, bid.now);
  } catch (e) {
    if (e instanceof MoneyError && e.reason === 'overflow') return { ok: false, reason: 'too_low' };
    throw e;
  }
  if (bid.amount < minimum) return { ok: false, reason: 'too_low', minimum };

  switch (a.auctionType) {
    case 'standard':
    case 'reserve':
      return { ok: true, price: bid.amount, settlesNow: false };
    case 'dutch':
      return { ok: true, price: dutchPrice(a, bid.now), settlesNow: true };
    case 'buy_now':
      return { ok: true, price: a.buyNowPrice, settlesNow: true };
  }
}
