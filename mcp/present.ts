/** REST answers → the compact shapes the tools return (ISO times, bounded lists). */
import type { AuctionDetail, AuctionListItem } from '../src/client/sns-auction-client.js';

export const isoOf = (ms: number): string => new Date(ms).toISOString();

export function auctionSummary(a: AuctionListItem) {
  return {
    id: a.id,
    title: a.title,
    domains: a.domains,
    type: a.type,
    status: a.status,
    seller: a.seller,
    currentPrice: a.currentPrice,
    startingPrice: a.startingPrice,
    minBidIncrement: a.minBidIncrement,
    buyNowPrice: a.buyNowPrice,
    dutchEndPrice: a.dutchEndPrice,
    topBidder: a.topBidder,
    totalBids: a.totalBids,
    startTime: isoOf(a.startTime),
    endTime: isoOf(a.endTime),
    settled: a.settled,
    winner: a.winner,
    finalPrice: a.finalPrice,
    reserveMet: a.reserveMet,
    category: a.category,
    tags: a.tags,
  };
}

/** Detail with the rules an agent needs to bid, and the newest `bidLimit` bids (newest first). */
export function auctionDetail(a: AuctionDetail, bidLimit: number) {
  const bids = [...a.bids].sort((x, y) => y.timestamp - x.timestamp).slice(0, bidLimit);
  const secondsLeft = Math.max(0, Math.floor((a.endTime - a.serverTime) / 1000));
  return {
    ...auctionSummary(a),
    reservePrice: a.reservePrice,
    rules: {
      nextMinimumBid: a.nextMinimumBid,
      secondsLeft,
      snipeProtectionEnabled: a.snipeProtectionEnabled,
      snipeWindowSeconds: a.snipeWindowSeconds,
      snipeExtensionSeconds: a.snipeExtensionSeconds,
      serverTime: isoOf(a.serverTime),
    },
    bids: bids.map((b) => ({
      bidder: b.bidder,
      amount: b.amount,
      time: isoOf(b.timestamp),
      transactionId: b.transactionId,
    })),
    bidsShown: bids.length,
  };
}
