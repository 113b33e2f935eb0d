import type { Address } from '../address.js';
import type { AuctionAccount } from '../program/auction-account.js';

export const BPS_DENOMINATOR = 10_000;

export type SettlementOutcome =
  | { readonly kind: 'not_ended' }
  | { readonly kind: 'not_active' }
  /** The auction has a hidden reserve and the keeper did not reveal it: nothing can be decided. */
  | { readonly kind: 'reserve_not_revealed' }
  | { readonly kind: 'sold'; readonly winner: Address; readonly price: bigint }
  | { readonly kind: 'no_bids' }
  | { readonly kind: 'reserve_not_met'; readonly topBidder: Address; readonly topBid: bigint };

export type SettleableAuction = Pick<
  AuctionAccount,
  'state' | 'endTs' | 'topBidder' | 'topBid' | 'reserveCommitment'
>;

/**
 * What `settle` does at chain time `now`. `revealedReserve` is the reserve in lamports, already
 * checked against the on-chain commitment by the caller; it is ignored for auctions without one.
 */
export function settlementOutcome(
  a: SettleableAuction,
  now: bigint,
  revealedReserve: bigint | null,
): SettlementOutcome {
  if (a.state !== 'active') return { kind: 'not_active' };
  if (now < a.endTs) return { kind: 'not_ended' };
  if (a.topBidder === null) return { kind: 'no_bids' };
  if (a.reserveCommitment !== null) {
    if (revealedReserve === null) return { kind: 'reserve_not_revealed' };
    if (a.topBid < revealedReserve)
      return { kind: 'reserve_not_met', topBidder: a.topBidder, topBid: a.topBid };
  }
  return { kind: 'sold', winner: a.topBidder, price: a.topBid };
}

export interface FeeSplit {
  readonly fee: bigint;
  readonly sellerProceeds: bigint;
}

/** The platform fee (rounded down, in the seller's favour) and what the seller receives. */
export function feeSplit(price: bigint, feeBps: number): FeeSplit {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > BPS_DENOMINATOR) {
    throw new RangeError(`fee must be an integer 0..${BPS_DENOMINATOR} basis points, got ${feeBps}`);
  }
  if (price < 0n) throw new RangeError(`price must not be negative, got ${price}`);
  const fee = (price * BigInt(feeBps)) / BigInt(BPS_DENOMINATOR);
  return { fee, sellerProceeds: price - fee };
}
