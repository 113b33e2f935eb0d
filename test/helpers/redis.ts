import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { inject } from 'vitest';
import { connectRedis } from '../../src/redis/client.js';

export interface TestRedis {
  readonly redis: Redis;
  readonly url: string;
  /** Unique per test file (and per call), e.g. "test:rate-limit:1f2e…:". */
  readonly prefix: string;
  /** Deletes this file's keys and closes the connection. Never FLUSHALL: the server is shared. */
  cleanup(): Promise<void>;
}

export async function createTestRedis(name: string): Promise<TestRedis> {
  const url = inject('redisUrl');
  const redis = await connectRedis(url);
  const prefix = `test:${name}:${randomUUID().slice(0, 8)}:`;
  return {
    redis,
    url,
    prefix,
    async cleanup() {
      await deleteKeysWithPrefix(redis, prefix);
      await redis.quit();
    },
  };
}

/** Deletes every key under `prefix` (SCAN + UNLINK). Never FLUSHALL: the server is shared. */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
