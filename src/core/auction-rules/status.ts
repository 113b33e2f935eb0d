import type { AuctionAccount } from '../program/auction-account.js';

export const AUCTION_STATUSES = ['upcoming', 'active', 'ended', 'cancelled'] as const;
export type AuctionStatus = (typeof AUCTION_STATUSES)[number];

export type AuctionTiming = Pick<AuctionAccount, 'state' | 'startTs' | 'endTs'>;

/** The public status at chain time `now` (Unix seconds). A settled auction is `ended`. */
export function auctionStatus(a: AuctionTiming, now: bigint): AuctionStatus {
  if (a.state === 'cancelled') return 'cancelled';
  if (a.state === 'settled' || now >= a.endTs) return 'ended';
  if (now < a.startTs) return 'upcoming';
  return 'active';
}

/** Bids are accepted only while the auction is `active`: startTs ≤ now < endTs and not settled/cancelled. */
export function isBiddingOpen(a: AuctionTiming, now: bigint): boolean {
  return auctionStatus(a, now) === 'active';
}

/**
 * The first chain second after `now` at which `auctionStatus` may answer differently, or null when
 * only a new account state can change it (cancelled, settled, or ended by time).
 */
export function statusChangesAt(a: AuctionTiming, now: bigint): bigint | null {
  if (a.state === 'cancelled' || a.state === 'settled' || now >= a.endTs) return null;
  return now < a.startTs ? a.startTs : a.endTs;
}
