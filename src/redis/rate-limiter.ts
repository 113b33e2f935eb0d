import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the current bucket ends (X-RateLimit-Reset, Retry-After). */
  readonly resetSeconds: number;
}

export interface RateLimitRule {
  /** Stable endpoint id, e.g. "POST /auctions/:id/bid": buckets are per endpoint. */
  readonly endpoint: string;
  readonly limit: number;
  readonly windowMs: number;
}

// INCR and arm the expiry in one step, so concurrent instances never leave a bucket without a TTL.
// KEYS[1] the bucket, ARGV[1] its expiry (ms); returns the count. Exported for composition
// (guarded-script.ts runs it, as a function of its KEYS and ARGV, for anonymous callers).
export const BUCKET_HIT_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
const BUCKET_HIT = new LuaScript(BUCKET_HIT_LUA);

/** How long a bucket outlives its window (clock skew between instances). */
export const bucketTtlMs = (windowMs: number): number => windowMs + 5_000;

/**
 * Fixed windows aligned to the clock (bucket = floor(now / window)), shared by every API instance
 * on the same Redis. Alignment lets clients compute the reset themselves; the strategy runner
 * relies on it to keep its bid budget inside the server's minute.
 */
export class FixedWindowRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Counts one request against `subject` (an API key id or a client IP) and decides. */
  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitDecision> {
    const { key, resetMs } = this.bucket(rule, subject);
    const count = Number(await BUCKET_HIT.run(this.redis, [key], [bucketTtlMs(rule.windowMs)]));
    return this.decideHit(rule, count, resetMs);
  }

  /** Reads the bucket without counting (for budgets that plan ahead). */
  async peek(rule: RateLimitRule, subject: string): Promise<RateLimitDecision> {
    const { key, resetMs } = this.bucket(rule, subject);
    const count = Number((await this.redis.get(key)) ?? 0);
    return this.decide(rule, count, resetMs, count < rule.limit);
  }

  /**
   * The current clock-aligned window of `windowMs`: its number and the time left in it. For
   * callers that count in their own script (authentication and the hit in one round trip).
   */
  window(windowMs: number): { bucket: number; resetMs: number } {
    const now = this.nowMs();
    const bucket = Math.floor(now / windowMs);
    return { bucket, resetMs: (bucket + 1) * windowMs - now };
  }

  /** The decision for a hit that made the bucket's count `count`. */
  decideHit(rule: Pick<RateLimitRule, 'limit'>, count: number, resetMs: number): RateLimitDecision {
    return this.decide(rule, count, resetMs, count <= rule.limit);
  }

  /** The bucket `hit` counts in now and the time left in it (for callers counting in their own script). */
  bucket(rule: Pick<RateLimitRule, 'endpoint' | 'windowMs'>, subject: string) {
    const { bucket, resetMs } = this.window(rule.windowMs);
    return { key: this.keys.rateLimitBucket(rule.endpoint, subject, bucket), resetMs };
  }

  private decide(
    rule: Pick<RateLimitRule, 'limit'>,
    count: number,
    resetMs: number,
    allowed: boolean,
  ): RateLimitDecision {
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }
}
