import { Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connection for request paths: fail fast instead of queueing commands while Redis is down,
 * so a request gets an error (503 from /health, 500 elsewhere) rather than hanging.
 */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    lazyConnect: true,
    ...options,
  });
  await redis.connect();
  return redis;
}

/** BullMQ workers need blocking connections that retry forever. */
export function workerRedisOptions(url: string): RedisOptions & { url: string } {
  return { url, maxRetriesPerRequest: null, enableOfflineQueue: true };
}
