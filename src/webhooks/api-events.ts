/**
 * Program events (as the indexer logged them) → API events. Pure: ids derive from the logged event
 * id, so re-reading an event always yields the same API events with the same ids.
 */
import { type Lamports, lamportsToSol } from '../core/money.js';
import type { EventLogEntry } from '../indexer/event-log.js';
import type { WebhookEventType } from './event-types.js';

export interface ApiEvent {
  /** `evt_…`: the body's `id` and `X-Webhook-ID`, stable across retries and re-indexing. */
  readonly id: string;
  readonly event: WebhookEventType;
  readonly auctionId: string;
  /** Unix ms of the chain event. */
  readonly timestamp: number;
  /** Event-specific fields; `domains` is added when the body is built. */
  readonly data: Record<string, unknown>;
}

/** The exact JSON sent: `domain` is the first domain, `data.domains` all of them. */
export function webhookBody(event: ApiEvent, domains: readonly string[]): string {
  return JSON.stringify({
    event: event.event,
    auctionId: event.auctionId,
    domain: domains[0] ?? '',
    data: { ...event.data, domains: [...domains] },
    timestamp: event.timestamp,
    id: event.id,
  });
}

const sol = (lamports: unknown) => lamportsToSol(BigInt(lamports as string) as Lamports);
const ms = (seconds: unknown) => Number(seconds) * 1_000;
const str = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** The API events of one program event (a bid that displaces another bidder is also an outbid). */
export function apiEventsOf(entry: EventLogEntry): ApiEvent[] {
  const d = entry.data;
  const auctionId = String(d['auction']);
  const timestamp = entry.blockTime !== null ? entry.blockTime * 1_000 : ms(d['timestamp'] ?? 0);
  const one = (event: WebhookEventType, data: Record<string, unknown>, id = entry.id): ApiEvent => ({
    id,
    event,
    auctionId,
    timestamp,
    data,
  });
  switch (entry.name) {
    case 'AuctionCreated':
      return [
        one('auction.created', {
          seller: d['seller'],
          auctionType: d['auctionType'],
          startingPrice: sol(d['startingPrice']),
          buyNowPrice: d['buyNowPrice'] === '0' ? null : sol(d['buyNowPrice']),
          hasReserve: d['hasReserve'],
          startTime: ms(d['startTs']),
          endTime: ms(d['endTs']),
          snipeProtection: d['snipeEnabled'],
        }),
      ];
    case 'BidPlaced': {
      const bid = one('auction.bid', {
        bidder: d['bidder'],
        bidAmount: sol(d['amount']),
        bidCount: d['bidCount'],
        endTime: ms(d['endTs']),
      });
      const previous = str(d['previousBidder']);
      if (previous === null || previous === d['bidder']) return [bid];
      const outbid = one(
        'auction.outbid',
        {
          previousBidder: previous,
          previousAmount: sol(d['previousAmount']),
          bidder: d['bidder'],
          bidAmount: sol(d['amount']),
        },
        `${entry.id}_outbid`,
      );
      return [bid, outbid];
    }
    case 'AuctionExtended':
      return [
        one('auction.extended', {
          previousEndTime: ms(d['previousEndTs']),
          newEndTime: ms(d['newEndTs']),
          bidder: d['bidder'],
          bidAmount: sol(d['amount']),
        }),
      ];
    case 'AuctionSettled':
      // SPEC.md: `auction.settled` is a settlement *with a winning bid*; the others are
      // `auction.reserve_not_met` (its own program event) or no sale at all.
      if (d['winner'] === null) return [];
      return [
        one('auction.settled', {
          seller: d['seller'],
          winner: d['winner'],
          finalPrice: sol(d['price']),
          fee: sol(d['fee']),
        }),
      ];
    case 'ReserveNotMet':
      return [one('auction.reserve_not_met', { topBid: sol(d['topBid']), topBidder: str(d['topBidder']) })];
    case 'AuctionCancelled':
      return [one('auction.cancelled', { seller: d['seller'] })];
  }
}
