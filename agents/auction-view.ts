/**
 * REST auction detail → `AuctionView` (lamports, chain ms), and the time-dependent reads a
 * strategy needs (status and minimum bid at any chain time), computed with the program's own rules.
 */

import type { AuctionDetail } from '../src/client/sns-auction-client.js';
import { dutchPrice } from '../src/core/auction-rules/dutch-price.js';
import { type AuctionStatus, auctionStatus } from '../src/core/auction-rules/status.js';
import { type Lamports, solToLamports } from '../src/core/money.js';
import type { AuctionView } from './strategy.js';

const lamports = (sol: number) => solToLamports(sol);
const seconds = (ms: number) => BigInt(Math.floor(ms / 1000));

export function toAuctionView(d: AuctionDetail, wallet: string): AuctionView {
  // From the account (currentPrice is the top bid of an English auction), not from the bid list,
  // which comes from the indexer and may lag the chain by a slot or two.
  const english = d.type === 'standard' || d.type === 'reserve';
  const topBid =
    d.topBidder === null
      ? null
      : english
        ? lamports(d.currentPrice)
        : lamports(Math.max(0, ...d.bids.map((b) => b.amount)));
  return {
    id: d.id,
    type: d.type,
    startTime: d.startTime,
    endTime: d.endTime,
    snipeEnabled: d.snipeProtectionEnabled,
    snipeWindowMs: d.snipeWindowSeconds * 1000,
    snipeExtensionMs: d.snipeExtensionSeconds * 1000,
    startingPrice: lamports(d.startingPrice),
    minIncrement: lamports(d.minBidIncrement),
    minimumBid: d.nextMinimumBid === null ? null : lamports(d.nextMinimumBid),
    topBid,
    topBidder: d.topBidder,
    weHold: d.topBidder === wallet,
    bidCount: d.totalBids,
    dutch:
      d.type === 'dutch' && d.dutchEndPrice !== null
        ? {
            startingPrice: lamports(d.startingPrice),
            dutchFloor: lamports(d.dutchEndPrice),
            startTs: seconds(d.startTime),
            endTs: seconds(d.endTime),
          }
        : null,
    buyNowPrice: d.buyNowPrice === null ? null : lamports(d.buyNowPrice),
    cancelled: d.status === 'cancelled',
    settled: d.settled,
    winner: d.winner,
    observedAt: d.serverTime,
  };
}

/** The public status at chain time `now` (ms), as the program will judge a bid landing then. */
export function statusAt(v: AuctionView, now: number): AuctionStatus {
  return auctionStatus(
    {
      state: v.cancelled ? 'cancelled' : v.settled ? 'settled' : 'active',
      startTs: seconds(v.startTime),
      endTs: seconds(v.endTime),
    },
    seconds(now),
  );
}

/** The minimum a bid must carry at chain time `now` (Dutch: the price on the curve then). */
export function minimumBidAt(v: AuctionView, now: number): Lamports | null {
  if (v.dutch) return dutchPrice(v.dutch, seconds(now));
  if (v.type === 'buy_now') return v.buyNowPrice;
  if (v.topBid === null || v.topBidder === null) return v.minimumBid ?? v.startingPrice;
  return v.topBid + v.minIncrement;
}

/** True when the auction is over for us: we won it, someone else did, or it closed without us. */
export function resolution(v: AuctionView, wallet: string, now: number): 'won' | 'lost' | null {
  if (v.winner !== null) return v.winner === wallet ? 'won' : 'lost';
  if (v.cancelled) return 'lost';
  if (statusAt(v, now) === 'ended' || v.settled) return v.weHold ? 'won' : 'lost';
  return null;
}

/**
 * Paper mode: the view as if our paper bid had landed (the market never sees it). English: we hold
 * the top bid while no real bid beats it; Dutch and buy-now: the bid closed the auction for us.
 */
export function withPaperBid(
  v: AuctionView,
  bid: { amount: Lamports; at: number },
  wallet: string,
): AuctionView {
  if (v.type === 'dutch' || v.type === 'buy_now') {
    if (v.winner !== null || v.settled) return v;
    return { ...v, settled: true, winner: wallet, topBid: bid.amount, topBidder: wallet, weHold: true };
  }
  if (v.topBid !== null && v.topBid >= bid.amount) return v;
  return {
    ...v,
    topBid: bid.amount,
    topBidder: wallet,
    weHold: true,
    minimumBid: bid.amount + v.minIncrement,
    endTime:
      v.snipeEnabled && v.endTime - bid.at <= v.snipeWindowMs && bid.at < v.endTime
        ? v.endTime + v.snipeExtensionMs
        : v.endTime,
  };
}
