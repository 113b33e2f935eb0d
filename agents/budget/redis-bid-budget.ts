/**
 * The bid budget shared by every strategy (and every runner process) using one API key: a Redis
 * counter per minute bucket, charged atomically before each POST /bid and raised to what the
 * server reports in its rate-limit headers (bids made with the same key outside the runner count).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { RateLimitInfo } from '../../src/client/api-error.js';
import type { RedisKeys } from '../../src/redis/keys.js';
import { type BudgetPolicy, bucketsFor, capFor, msUntilRetry, usageFromHeaders } from './bid-budget.js';

// All-or-nothing: every bucket the request may land in must have room, then each is charged.
const ACQUIRE = `
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[1]) then return 0 end
end
for i = 1, #KEYS do
  redis.call('INCR', KEYS[i])
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return 1`;

const RAISE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > n then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1`;

/** Budgets are per key: the hash of the raw key names it, so the key itself is never stored. */
export const budgetSubject = (apiKey: string) =>
  createHash('sha256').update(apiKey).digest('hex').slice(0, 16);

export class RedisBidBudget {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly subject: string,
    readonly policy: BudgetPolicy,
    private readonly nowMs: () => number = Date.now,
  ) {}

  #key = (bucket: number) => this.keys.agents('budget', this.subject, bucket);
  #ttl = () => String(this.policy.windowMs * 2 + this.policy.guardMs);

  /** Takes one bid slot now, or says how long (clock ms) until one may be free. */
  async tryAcquire(urgent: boolean): Promise<{ ok: true } | { ok: false; retryInMs: number }> {
    const now = this.nowMs();
    const keys = bucketsFor(now, this.policy).map(this.#key);
    const cap = capFor(urgent, this.policy);
    const ok = Number(await this.redis.eval(ACQUIRE, keys.length, ...keys, String(cap), this.#ttl()));
    return ok === 1 ? { ok: true } : { ok: false, retryInMs: msUntilRetry(now, this.policy) };
  }

  /** Waits (re-checking at most every `pollMs` real ms) until a slot is taken; false when aborted. */
  async acquire(urgent: boolean, signal?: AbortSignal, pollMs = 100): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      const r = await this.tryAcquire(urgent);
      if (r.ok) return true;
      await sleep(Math.min(r.retryInMs, pollMs));
    }
  }

  /** Trusts the server's headers: its count for the bucket can only raise ours. */
  async observe(info: RateLimitInfo): Promise<void> {
    const { bucket, used } = usageFromHeaders(info, this.nowMs(), this.policy);
    await this.redis.eval(RAISE, 1, this.#key(bucket), String(used), this.#ttl());
  }

  /** Slots used in the current bucket (for status output). */
  async used(): Promise<number> {
    const now = this.nowMs();
    return Number((await this.redis.get(this.#key(Math.floor(now / this.policy.windowMs)))) ?? 0);
  }
}
