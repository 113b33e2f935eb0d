import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';

// Both only act while the lease still holds our token, so an instance whose lease expired and was
// taken over can never extend or delete the new holder's lease.
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A lease on one Redis key: `SET key token NX PX ttl`. Whoever holds the token is the single active
 * instance (indexer, keeper) until it stops renewing; then another instance can take over.
 */
export class RedisLease {
  readonly token = randomBytes(16).toString('hex');

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly ttlMs: number,
  ) {}

  /** True when we now hold the lease (also when we already held it: then it is renewed). */
  async acquire(): Promise<boolean> {
    const set = await this.redis.set(this.key, this.token, 'PX', this.ttlMs, 'NX');
    return set === 'OK' || (await this.renew());
  }

  /** Extends our lease by ttlMs; false when it is not ours (expired, or taken over). */
  async renew(): Promise<boolean> {
    return Number(await this.redis.eval(RENEW_SCRIPT, 1, this.key, this.token, String(this.ttlMs))) === 1;
  }

  /** Gives the lease up at once so a standby takes over without waiting for the TTL. */
  async release(): Promise<boolean> {
    return Number(await this.redis.eval(RELEASE_SCRIPT, 1, this.key, this.token)) === 1;
  }

  /** The token of the current holder, if any. */
  holder(): Promise<string | null> {
    return this.redis.get(this.key);
  }
}

export interface LeaderOptions {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  /** Lease name, e.g. "indexer" or "keeper". */
  readonly name: string;
  readonly ttlMs: number;
  /** Stops contending (and leading): runWhileLeader resolves once `fn` has returned. */
  readonly signal: AbortSignal;
  /** Between renewals; default ttlMs / 3. */
  readonly renewEveryMs?: number;
  /** Between attempts to take the lease while another instance holds it; default ttlMs / 2. */
  readonly retryEveryMs?: number;
  /** Told when this instance starts and stops leading. */
  readonly onLeadershipChange?: (leading: boolean) => void;
  /** Told about failures of `fn` and Redis errors; the loop goes on. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Runs `fn` while this instance holds the lease `name`, renewing it in the background. When the
 * lease is lost (not renewed in time, or taken over) `fn`'s signal aborts; `fn` must then stop
 * promptly, and this instance goes back to contending. `fn` may also return on its own (or
 * throw): the lease is released and contended for again. Resolves when `signal` aborts.
 */
export async function runWhileLeader(
  options: LeaderOptions,
  fn: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { redis, keys, name, ttlMs, signal } = options;
  const lease = new RedisLease(redis, keys.lease(name), ttlMs);
  const retryEveryMs = options.retryEveryMs ?? Math.max(1, Math.floor(ttlMs / 2));
  while (!signal.aborted) {
    let acquired = false;
    try {
      acquired = await lease.acquire();
    } catch (error) {
      options.onError?.(error);
    }
    if (acquired) await lead(lease, options, fn);
    if (!signal.aborted) await sleep(retryEveryMs, undefined, { signal }).catch(() => undefined);
  }
}

async function lead(
  lease: RedisLease,
  options: LeaderOptions,
  fn: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { ttlMs, signal } = options;
  const renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const leadership = new AbortController();
  const stop = () => leadership.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  // The lease certainly holds until `validUntil` (measured from before each successful command);
  // a renewal that fails, or errors until then, means another instance may already lead.
  let validUntil = performance.now() + ttlMs;
  const renewal = setInterval(async () => {
    const sentAt = performance.now();
    try {
      if (await lease.renew()) validUntil = sentAt + ttlMs;
      else leadership.abort(new Error(`lease ${options.name} was lost`));
    } catch (error) {
      options.onError?.(error);
      if (performance.now() >= validUntil - renewEveryMs)
        leadership.abort(new Error(`lease ${options.name} could not be renewed`));
    }
  }, renewEveryMs);
  options.onLeadershipChange?.(true);
  try {
    await fn(leadership.signal);
  } catch (error) {
    if (!leadership.signal.aborted) options.onError?.(error);
  } finally {
    clearInterval(renewal);
    signal.removeEventListener('abort', stop);
    options.onLeadershipChange?.(false);
    await lease.release().catch((error: unknown) => options.onError?.(error));
  }
}
