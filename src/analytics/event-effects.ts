/**
 * What one program event changes in the analytics aggregates, as a list of Redis commands. The
 * apply script runs them only if the event id was not applied before, so the list may be built
 * from the auction's stored facts without any check of its own.
 */
import type { EventLogEntry } from '../indexer/event-log.js';
import {
  type AnalyticsKeys,
  DAILY_RETENTION_SECONDS,
  DAY_SECONDS,
  HOUR_SECONDS,
  HOURLY_RETENTION_SECONDS,
  RECENT_ACTIVITY,
} from './analytics-keys.js';
import { collectionOf } from './collections.js';

/** What the analytics remember of an auction from its AuctionCreated event. */
export interface AuctionFacts {
  readonly seller: string;
  readonly type: string;
  readonly domains: readonly string[];
  readonly collection: string | null;
}

export type UserActivityType =
  | 'auction_created'
  | 'bid_placed'
  | 'auction_won'
  | 'auction_sold'
  | 'auction_cancelled';

/** A recentActivity element as stored (amount in lamports). */
export interface StoredActivity {
  readonly type: UserActivityType;
  readonly auctionId: string;
  readonly domain: string;
  readonly amount: string | null;
  /** Unix ms (chain time). */
  readonly timestamp: number;
  readonly transactionId: string;
}

export type RedisCommand = readonly (string | number)[];

export function factsFromCreated(data: Record<string, unknown>): AuctionFacts {
  const domains = (data['domains'] as string[]).map((d) => (d.endsWith('.sol') ? d : `${d}.sol`));
  return {
    seller: String(data['seller']),
    type: String(data['auctionType']),
    domains,
    collection: collectionOf(domains[0] ?? '')?.slug ?? null,
  };
}

/** Chain Unix seconds of the event: its own timestamp field, else the block time. */
export function eventSeconds(entry: EventLogEntry): number {
  const ts = entry.data['timestamp'];
  if (typeof ts === 'string' || typeof ts === 'number') return Number(ts);
  return entry.blockTime ?? 0;
}

export function effectsOf(entry: EventLogEntry, auction: AuctionFacts, k: AnalyticsKeys): RedisCommand[] {
  const auctionId = String(entry.data['auction']);
  const seconds = eventSeconds(entry);
  const ops: RedisCommand[] = [];
  const activity = (wallet: string, type: UserActivityType, amount: string | null) => {
    const item: StoredActivity = {
      type,
      auctionId,
      domain: auction.domains[0] ?? '',
      amount,
      timestamp: seconds * 1000,
      transactionId: entry.signature,
    };
    ops.push(['LPUSH', k.userActivity(wallet), JSON.stringify(item)]);
    ops.push(['LTRIM', k.userActivity(wallet), 0, RECENT_ACTIVITY - 1]);
  };
  const touchCollection = () => {
    if (auction.collection) ops.push(['HSET', k.collection(auction.collection), 'updated', seconds * 1000]);
  };
  const closeInCollection = () => {
    if (auction.collection) ops.push(['SREM', k.collectionOpen(auction.collection), auctionId]);
    touchCollection();
  };

  switch (entry.name) {
    case 'AuctionCreated': {
      ops.push(['HSET', k.auction(auctionId), 'seller', auction.seller, 'type', auction.type]);
      ops.push(['HSET', k.auction(auctionId), 'domains', JSON.stringify(auction.domains)]);
      if (auction.collection) {
        ops.push(['HSET', k.auction(auctionId), 'collection', auction.collection]);
        ops.push(['SADD', k.collectionOpen(auction.collection), auctionId]);
      }
      touchCollection();
      ops.push(['HINCRBY', k.user(auction.seller), 'created', 1]);
      activity(auction.seller, 'auction_created', String(entry.data['startingPrice']));
      break;
    }
    case 'BidPlaced': {
      const bidder = String(entry.data['bidder']);
      const amount = String(entry.data['amount']);
      ops.push(['HINCRBY', k.user(bidder), 'bids', 1]);
      ops.push(['HINCRBY', k.user(bidder), 'bidVolume', amount]);
      ops.push(['SADD', k.userAuctions(bidder), auctionId]);
      activity(bidder, 'bid_placed', amount);
      break;
    }
    case 'AuctionSettled': {
      const hour = Math.floor(seconds / HOUR_SECONDS);
      ops.push(['HINCRBY', k.market(), 'settled', 1]);
      ops.push(...bucket(k.marketHour('settled', hour), 1, HOURLY_RETENTION_SECONDS));
      closeInCollection();
      const winner = entry.data['winner'];
      if (typeof winner === 'string') {
        const price = String(entry.data['price']);
        ops.push(...saleEffects(auction, winner, price));
        activity(winner, 'auction_won', price);
        activity(auction.seller, 'auction_sold', price);
      }
      break;
    }
    case 'AuctionCancelled':
      closeInCollection();
      activity(auction.seller, 'auction_cancelled', null);
      break;
    case 'AuctionExtended':
    case 'ReserveNotMet':
      break;
  }
  return ops;

  function saleEffects(a: AuctionFacts, winner: string, price: string): RedisCommand[] {
    const hour = Math.floor(seconds / HOUR_SECONDS);
    const day = Math.floor(seconds / DAY_SECONDS);
    const sale: RedisCommand[] = [
      ['HINCRBY', k.market(), 'volume', price],
      ['HINCRBY', k.market(), 'sales', 1],
      ...bucket(k.marketHour('volume', hour), price, HOURLY_RETENTION_SECONDS),
      ...bucket(k.marketHour('sales', hour), 1, HOURLY_RETENTION_SECONDS),
      ['SADD', k.buyers(), winner],
      ['SADD', k.sellers(), a.seller],
      ['HINCRBY', k.user(winner), 'won', 1],
      ['HINCRBY', k.user(winner), 'volume', price],
      ['HINCRBY', k.user(a.seller), 'volume', price],
      ['SADD', k.userAuctions(winner), auctionId],
    ];
    // A bundle's price is shared evenly by its domains (the remainder goes to the first).
    const count = BigInt(Math.max(1, a.domains.length));
    const share = BigInt(price) / count;
    a.domains.forEach((domain, i) => {
      const domainPrice = (i === 0 ? share + (BigInt(price) % count) : share).toString();
      sale.push(['HINCRBY', k.domain(domain), 'sales', 1]);
      sale.push(['HINCRBY', k.domain(domain), 'volume', domainPrice]);
      sale.push(['HSET', k.domain(domain), 'last', domainPrice]);
      sale.push(['ZINCRBY', k.topDomains(), domainPrice, domain]);
    });
    if (a.collection) {
      sale.push(['HINCRBY', k.collection(a.collection), 'sales', 1]);
      sale.push(['HINCRBY', k.collection(a.collection), 'volume', price]);
      sale.push(...bucket(k.collectionHour(a.collection, hour), price, HOURLY_RETENTION_SECONDS));
      sale.push(...bucket(k.collectionDay(a.collection, day), price, DAILY_RETENTION_SECONDS));
    }
    return sale;
  }
}

/** Adds to a time bucket and (re)arms its expiry: see `HOURLY_RETENTION_SECONDS`. */
function bucket(key: string, amount: string | number, ttlSeconds: number): RedisCommand[] {
  return [
    ['INCRBY', key, amount],
    ['EXPIRE', key, ttlSeconds],
  ];
}
