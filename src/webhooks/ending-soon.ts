import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { Redis } from 'ioredis';
import { lamportsToSol } from '../core/money.js';
import type { IndexedAuction } from '../indexer/auction-index-query.js';
import type { ApiEvent } from './api-events.js';
import { enqueueForSubscribers, type FanOutDeps } from './fan-out.js';

const MAX_PER_SWEEP = 1_000;

/** Stable per (auction, end time): an extension moves the end, and the new end gets its own event. */
export function endingSoonEventId(auctionId: string, endTs: bigint): string {
  const digest = createHash('sha256').update(`ending_soon:${auctionId}:${endTs}`).digest();
  return `evt_${bs58.encode(digest.subarray(0, 16))}`;
}

export function endingSoonEvent(auction: IndexedAuction, chainNow: bigint): ApiEvent {
  const a = auction.account;
  return {
    id: endingSoonEventId(auction.address, a.endTs),
    event: 'auction.ending_soon',
    auctionId: auction.address,
    timestamp: Number(chainNow) * 1_000,
    data: {
      endTime: Number(a.endTs) * 1_000,
      secondsLeft: Number(a.endTs - chainNow),
      topBidder: a.topBidder,
      topBid: a.topBidder === null ? null : lamportsToSol(a.topBid),
      bidCount: a.bidCount,
    },
  };
}

/**
 * One sweep at chain time `chainNow`: every on-chain-active auction ending within `leadSeconds`
 * gets its `auction.ending_soon` once. The emitted marker is set after the jobs are enqueued; a
 * sweep interrupted in between re-enqueues the same job ids, which BullMQ ignores.
 */
export async function sweepEndingSoon(
  deps: FanOutDeps & { readonly redis: Redis },
  chainNow: bigint,
  leadSeconds: number,
): Promise<number> {
  const ending = await deps.auctionIndex.endingBetween(
    chainNow,
    chainNow + BigInt(leadSeconds),
    MAX_PER_SWEEP,
  );
  let emitted = 0;
  for (const address of ending) {
    const auction = await deps.auctionIndex.get(address);
    if (!auction) continue;
    const event = endingSoonEvent(auction, chainNow);
    const marker = deps.keys.webhookEndingSoonEmitted(event.id);
    if (await deps.redis.exists(marker)) continue;
    await enqueueForSubscribers(
      deps,
      event,
      auction.account.domains.map((d) => d.name),
    );
    await deps.redis.set(marker, '1', 'EX', leadSeconds + 24 * 3600);
    emitted += 1;
  }
  return emitted;
}
