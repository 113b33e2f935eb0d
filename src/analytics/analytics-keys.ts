import type { RedisKeys } from '../redis/keys.js';

/**
 * The analytics aggregates in Redis (all under one hash tag). Amounts are lamports, times chain
 * time: `hour` = Unix seconds / 3600, `day` = Unix seconds / 86400.
 */
export function analyticsKeys(keys: RedisKeys) {
  const a = keys.analytics;
  return {
    /**
     * STRING: the stream id of the last event log entry applied. Entries are applied in stream
     * order by one consumer, so this one id tells every entry already counted (a re-delivered or
     * replayed one is at or below it) in constant space, where a set of event ids grew forever.
     */
    appliedThrough: () => a('applied-through'),
    /** HASH per auction seen created: seller, type, domains (JSON), collection. */
    auction: (auctionId: string) => a('auction', auctionId),
    /** HASH: volume, sales, settled (all time). */
    market: () => a('market'),
    /** STRING per (measure, hour): lamports or a count; expires after `HOURLY_RETENTION_SECONDS`. */
    marketHour: (measure: 'volume' | 'sales' | 'settled', hour: number) =>
      a('market', measure, 'hour', String(hour)),
    buyers: () => a('buyers'),
    sellers: () => a('sellers'),
    /** HASH per domain: sales, volume, last (price of the last sale). */
    domain: (domain: string) => a('domain', domain),
    /** ZSET of domains by total sale volume. */
    topDomains: () => a('top-domains'),
    /** HASH per collection: sales, volume, updated (chain ms of its last event). */
    collection: (slug: string) => a('collection', slug),
    /** STRING per (collection, hour): volume; expires after `HOURLY_RETENTION_SECONDS`. */
    collectionHour: (slug: string, hour: number) => a('collection', slug, 'hour', String(hour)),
    /** STRING per (collection, day): volume; expires after `DAILY_RETENTION_SECONDS`. */
    collectionDay: (slug: string, day: number) => a('collection', slug, 'day', String(day)),
    /** SET of the collection's auctions neither settled nor cancelled. */
    collectionOpen: (slug: string) => a('collection', slug, 'open'),
    /** HASH per wallet: created, won, bids, bidVolume, volume. */
    user: (wallet: string) => a('user', wallet),
    /** SET of the auctions a wallet bid on or won (the denominator of its win rate). */
    userAuctions: (wallet: string) => a('user', wallet, 'auctions'),
    /** LIST of the wallet's latest activities (JSON), newest first. */
    userActivity: (wallet: string) => a('user', wallet, 'activity'),
    /** STRING cache of the wallet's primary domain ("" for none). */
    primaryDomain: (wallet: string) => a('primary-domain', wallet),
  };
}

export type AnalyticsKeys = ReturnType<typeof analyticsKeys>;

export const HOUR_SECONDS = 3600;
export const DAY_SECONDS = 86_400;
export const RECENT_ACTIVITY = 20;
/** Windows read: the last 24 hourly buckets (24 h figures) and 7 daily ones (the trend). */
export const WINDOW_HOURS = 24;
export const TREND_DAYS = 7;
/**
 * Time buckets are only read while inside their window, so each expires once it cannot be read
 * any more. The TTL is renewed by every write; a bucket is written no earlier than its own start,
 * so a TTL of at least one window from each write keeps it for as long as the window holds it
 * (chain time never runs slower than Redis's clock; a warp only moves buckets out sooner). The
 * margin covers clock skew between the chain and Redis. All-time totals are plain counters.
 */
export const HOURLY_RETENTION_SECONDS = (WINDOW_HOURS + 24) * HOUR_SECONDS;
export const DAILY_RETENTION_SECONDS = (TREND_DAYS + 2) * DAY_SECONDS;
