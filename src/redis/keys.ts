/**
 * Every Redis key the service uses, in one place. All keys start with the deployment prefix
 * (`REDIS_PREFIX`, default "sns:"), so a test file or a second deployment can share a Redis
 * without collisions. BullMQ queues get the same prefix through BullMQ's own `prefix` option.
 */
export type RedisKeys = ReturnType<typeof createRedisKeys>;

export function createRedisKeys(prefix: string) {
  const k = (...parts: (string | number)[]) => `${prefix}${parts.join(':')}`;
  return {
    prefix,
    /** Prefix for BullMQ (it appends `:<queue>:…` itself). */
    bullPrefix: k('bull'),

    // API keys and accounts
    apiKey: (keyId: string) => k('key', keyId),
    apiKeyIdByHash: (sha256Hex: string) => k('key-by-hash', sha256Hex),
    accountKeys: (accountId: string) => k('account', accountId, 'keys'),

    // Rate limits: fixed, clock-aligned buckets.
    rateLimitBucket: (endpoint: string, subject: string, bucket: number) =>
      k('rl', endpoint, subject, bucket),
    /** The same key in two parts around its subject, for a script that learns the subject itself. */
    rateLimitBucketAround: (endpoint: string, bucket: number) =>
      ({ before: k('rl', endpoint, ''), after: `:${bucket}` }) as const,

    // Webhook subscriptions: one hash each, the ids of a key's subscriptions (ZSET by creation
    // time) and, per event type, the ids subscribed to it (a superset hint for the fan-out).
    webhook: (subscriptionId: string) => k('webhook', subscriptionId),
    webhooksOfKey: (keyId: string) => k('key', keyId, 'webhooks'),
    webhooksByEvent: (eventType: string) => k('webhooks-by-event', eventType),
    // Delivery attempts of a subscription (ZSET by attempt time, 30 days) and the ending-soon
    // events already emitted (one marker each, so every sweep emits an auction's event once).
    webhookDeliveries: (subscriptionId: string) => k('webhook', subscriptionId, 'deliveries'),
    webhookEndingSoonEmitted: (eventId: string) => k('webhook-ending-soon', eventId),

    // Indexer progress: last processed signature and slot; signatures processed lately (ZSET by
    // slot, trimmed) so that any process can tell when a transaction has been indexed.
    indexerState: () => k('indexer', 'state'),
    indexerRecent: () => k('indexer', 'recent'),

    // The auction index behind GET /auctions (src/indexer/). Its keys share one hash tag, so its
    // Lua scripts touch a single slot on a clustered Redis; `auctionIndex()` is the base the
    // scripts build their keys from (the layout is listed in src/indexer/lua/common.lua).
    auctionIndex: (...parts: string[]) => `${prefix}{auction-index}:${parts.join(':')}`,
    auctionBids: (auctionId: string) => `${prefix}{auction-index}:bids:${auctionId}`,

    // The durable event log: a Stream of every program event, and the event ids already in it
    // (both written by one script, so an event is appended exactly once).
    eventLog: () => k('{events}', 'log'),
    eventLogIds: () => k('{events}', 'ids'),

    // Analytics and profiles (src/analytics/): aggregates maintained from the event log by one
    // consumer group. They share one hash tag, so the apply script touches a single slot.
    analytics: (...parts: string[]) => `${prefix}{analytics}:${parts.join(':')}`,

    // Leases (single active indexer / keeper) and per-auction settlement locks.
    lease: (name: string) => k('lease', name),
    settleLock: (auctionId: string) => k('settle-lock', auctionId),
    settlement: (auctionId: string) => k('settlement', auctionId),

    // Hidden reserves (lamports) of reserve auctions created through the API: the keeper reveals
    // them at settlement, and only the seller's keys may read them.
    auctionReserve: (auctionId: string) => k('reserve', auctionId),
    // Bumped with every reserve written: the index's page cache keeps the known reserves of a page
    // under the value it read.
    auctionReservesVersion: () => k('reserves-version'),

    // Strategy runner (agents/): instances, their index, bid budgets per key and minute, the kill
    // switch. Its BullMQ queue lives under `bullPrefix` like the service's queues.
    agents: (...parts: (string | number)[]) => k('agents', ...parts),
  };
}
