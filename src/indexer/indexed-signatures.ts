import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/keys.js';

/** Whether the active indexer (in any process) has indexed `signature` lately. */
export async function isIndexed(redis: Redis, keys: RedisKeys, signature: string): Promise<boolean> {
  return (await redis.zscore(keys.indexerRecent(), signature)) !== null;
}

/**
 * Resolves once the active indexer has indexed `signature`, for processes that do not run the
 * indexer themselves (the API). Polls Redis every `pollMs`; rejects when `signal` aborts.
 */
export async function waitUntilIndexed(
  redis: Redis,
  keys: RedisKeys,
  signature: string,
  options: { readonly pollMs?: number; readonly signal?: AbortSignal } = {},
): Promise<void> {
  while (!(await isIndexed(redis, keys, signature))) {
    await sleep(options.pollMs ?? 100, undefined, { signal: options.signal });
  }
}
