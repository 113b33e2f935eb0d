import type { Connection, Keypair } from '@solana/web3.js';
import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import { AnalyticsReader } from './analytics/market-analytics.js';
import { ChainClock } from './chain/chain-clock.js';
import { createConnection } from './chain/connection.js';
import { RecentBlockhashes } from './chain/recent-blockhash.js';
import type { Config } from './config.js';
import { AuctionIndex } from './indexer/auction-index.js';
import { UserProfiles } from './profiles/user-profile.js';
import { ApiKeyStore } from './redis/api-key-store.js';
import { connectRedis } from './redis/client.js';
import { createRedisKeys, type RedisKeys } from './redis/keys.js';
import { FixedWindowRateLimiter } from './redis/rate-limiter.js';
import { ReserveStore } from './redis/reserve-store.js';
import { SettlementStore } from './redis/settlement-store.js';
import { WebhookSubscriptionStore } from './webhooks/subscription-store.js';

/** Where the chain is: resolved by the process entry (dev starts a localnet, production reads config). */
export interface ChainEndpoint {
  readonly rpcUrl: string;
  readonly wsUrl?: string | undefined;
  readonly keeper: Keypair;
  /** Secret for hidden-reserve salts (HMAC-SHA256(secret, auctionId)). */
  readonly reserveSecret: string;
}

/** Everything the server, the worker and the tests share. Built once by `createDeps`. */
export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly redis: Redis;
  readonly redisUrl: string;
  readonly keys: RedisKeys;
  readonly apiKeys: ApiKeyStore;
  readonly rateLimiter: FixedWindowRateLimiter;
  readonly webhooks: WebhookSubscriptionStore;
  readonly connection: Connection;
  /** The latest blockhash, at most ~2 s old: what wallet transactions are built on. */
  readonly blockhashes: RecentBlockhashes;
  /** Chain time (Clock sysvar): status, Dutch prices and bid checks are decided against it. */
  readonly chainClock: ChainClock;
  readonly chain: ChainEndpoint;
  readonly auctionIndex: AuctionIndex;
  readonly reserves: ReserveStore;
  readonly settlements: SettlementStore;
  /** Market and collection analytics, read from the aggregates the worker maintains. */
  readonly analytics: AnalyticsReader;
  readonly profiles: UserProfiles;
  readonly startedAt: number;
  close(): Promise<void>;
}

export interface DepsInput {
  readonly config: Config;
  readonly redisUrl: string;
  readonly chain: ChainEndpoint;
  readonly logger?: Logger;
  /** Overrides the configured prefix (each test file uses its own). */
  readonly redisPrefix?: string;
  /**
   * Wall clock (Unix ms) of the rate limiter's buckets and the chain-clock cache's age; tests drive
   * it to cross a minute at once, or to see a time warp without waiting out the cache.
   */
  readonly nowMs?: () => number;
}

export async function createDeps(input: DepsInput): Promise<Deps> {
  const { config, chain } = input;
  const logger =
    input.logger ??
    pino({ level: config.logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] });
  const redis = await connectRedis(input.redisUrl);
  const keys = createRedisKeys(input.redisPrefix ?? config.redisPrefix);
  const connection = createConnection(chain.rpcUrl, { wsUrl: chain.wsUrl });
  const chainClock = new ChainClock(connection, undefined, input.nowMs);
  const auctionIndex = new AuctionIndex(redis, keys);
  return {
    config,
    logger,
    redis,
    redisUrl: input.redisUrl,
    keys,
    apiKeys: new ApiKeyStore(redis, keys),
    rateLimiter: new FixedWindowRateLimiter(redis, keys, input.nowMs),
    webhooks: new WebhookSubscriptionStore(redis, keys),
    connection,
    blockhashes: new RecentBlockhashes(() => connection.getLatestBlockhash('confirmed')),
    chainClock,
    chain,
    auctionIndex,
    reserves: new ReserveStore(redis, keys),
    settlements: new SettlementStore(redis, keys),
    analytics: new AnalyticsReader({ redis, keys, auctionIndex, chainClock }),
    profiles: new UserProfiles({ redis, keys, connection, logger }),
    startedAt: Date.now(),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
