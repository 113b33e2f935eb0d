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

    // Leases (single active indexer / keeper) and per-auction settlement locks.
    lease: (name: string) => k('lease', name),
    settleLock: (auctionId: string) => k('settle-lock', auctionId),
    settlement: (auctionId: string) => k('settlement', auctionId),
  };
}
