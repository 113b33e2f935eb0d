import type { RedisKeys } from '../redis/keys.js';

/**
 * The analytics aggregates in Redis (all under one hash tag). Amounts are lamports, times chain
 * time: `hour` = Unix seconds / 3600, `day` = Unix seconds / 86400.
 */
export function analyticsKeys(keys: RedisKeys) {
  const a = keys.analytics;
  return {
    /** SET of the event ids already applied: an event counts once however often it is delivered. */
    applied: () => a('applied'),
    /** HASH per auction seen created: seller, type, domains (JSON), collection. */
    auction: (auctionId: string) => a('auction', auctionId),
    /** HASH: volume, sales, settled (all time). */
    market: () => a('market'),
    /** HASH: `<hour>:volume`, `<hour>:sales`, `<hour>:settled`. */
    marketHourly: () => a('market', 'hourly'),
    buyers: () => a('buyers'),
    sellers: () => a('sellers'),
    /** HASH per domain: sales, volume, last (price of the last sale). */
    domain: (domain: string) => a('domain', domain),
    /** ZSET of domains by total sale volume. */
    topDomains: () => a('top-domains'),
    /** HASH per collection: sales, volume, updated (chain ms of its last event). */
    collection: (slug: string) => a('collection', slug),
    /** HASH per collection: `<hour>` → volume. */
    collectionHourly: (slug: string) => a('collection', slug, 'hourly'),
    /** HASH per collection: `<day>` → volume. */
    collectionDaily: (slug: string) => a('collection', slug, 'daily'),
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
