/** The bid budget: pure minute-bucket math, and the Redis-backed budget shared by every strategy on a key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BudgetPolicy,
  bucketsFor,
  capFor,
  msUntilRetry,
  usageFromHeaders,
} from '../../agents/budget/bid-budget.js';
import { RedisBidBudget } from '../../agents/budget/redis-bid-budget.js';
import { OffsetChainClock } from '../../agents/runner/chain-clock.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { FixedWindowRateLimiter } from '../../src/redis/rate-limiter.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const P: BudgetPolicy = { limit: 60, windowMs: 60_000, guardMs: 500, urgentReserve: 10 };
const M = 60_000 * 29_000_000;

describe('minute-bucket math', () => {
  it('charges both buckets near a boundary, one in the middle', () => {
    expect(bucketsFor(M + 30_000, P)).toEqual([M / 60_000]);
    expect(bucketsFor(M + 100, P)).toEqual([M / 60_000 - 1, M / 60_000]);
    expect(bucketsFor(M + 59_600, P)).toEqual([M / 60_000, M / 60_000 + 1]);
  });

  it('reserves urgent slots and retries just past the guard band', () => {
    expect(capFor(false, P)).toBe(50);
    expect(capFor(true, P)).toBe(60);
    expect(msUntilRetry(M + 45_000, P)).toBe(15_500);
  });

  it('reads the server bucket from the reset header, whatever the second inside it', () => {
    for (const into of [0, 1, 999, 1000, 30_500, 59_001, 59_999]) {
      const resetSeconds = Math.max(1, Math.ceil((60_000 - into) / 1000));
      expect(usageFromHeaders({ limit: 60, remaining: 17, resetSeconds }, M + into, P)).toEqual({
        bucket: M / 60_000,
        used: 43,
      });
    }
  });
});

describe('RedisBidBudget', () => {
  let r: TestRedis;
  let clock = M + 10_000;
  beforeAll(async () => {
    r = await createTestRedis('agents-budget');
  });
  afterAll(async () => r?.cleanup());

  const budget = (subject: string) =>
    new RedisBidBudget(r.redis, createRedisKeys(r.prefix), subject, P, () => clock);

  it('50 normal bids a minute, 10 more for urgent ones, then waits for the next bucket', async () => {
    const b = budget('k1');
    const normal = await Promise.all(Array.from({ length: 55 }, () => b.tryAcquire(false)));
    expect(normal.filter((x) => x.ok)).toHaveLength(50);
    expect(normal.find((x) => !x.ok)).toEqual({ ok: false, retryInMs: 50_500 });
    const urgent = await Promise.all(Array.from({ length: 12 }, () => b.tryAcquire(true)));
    expect(urgent.filter((x) => x.ok)).toHaveLength(10);
    clock = M + 60_000 + 600;
    expect(await b.tryAcquire(false)).toEqual({ ok: true });
  });

  it('never lets the server count more than its limit in any bucket, across boundaries', async () => {
    const b = budget('k2');
    const limiter = new FixedWindowRateLimiter(r.redis, createRedisKeys(`${r.prefix}server:`), () => clock);
    const rule = { endpoint: 'POST /auctions/:id/bid', limit: 60, windowMs: 60_000 };
    clock = M + 120_000 + 59_000;
    let refusedByServer = 0;
    for (let i = 0; i < 400; i++) {
      if ((await b.tryAcquire(i % 3 === 0)).ok) {
        // The server's clock is up to 400 ms off ours, either way.
        const skew = ((i * 37) % 800) - 400;
        const saved = clock;
        clock += skew;
        if (!(await limiter.hit(rule, 'key:k2')).allowed) refusedByServer++;
        clock = saved;
      }
      clock += 150;
    }
    expect(refusedByServer).toBe(0);
  });

  it('raises its count to what the server reports', async () => {
    const b = budget('k3');
    clock = M + 300_000 + 20_000;
    await b.observe({ limit: 60, remaining: 5, resetSeconds: 40 });
    expect(await b.used()).toBe(55);
    expect((await b.tryAcquire(true)).ok).toBe(true);
    expect((await b.tryAcquire(false)).ok).toBe(false);
  });
});

describe('chain clock', () => {
  it('takes the best lower bound of the offset and follows a warp at once', () => {
    let local = 1_000_000;
    const c = new OffsetChainClock(() => local);
    c.observe(5_000_000 - 300, local); // a slot that started 300 ms ago
    c.observe(5_000_000 - 50, local + 0);
    expect(c.offsetMs).toBe(4_000_000 - 50);
    local += 10;
    expect(c.chainNow()).toBe(5_000_000 - 40);
    c.observe(9_000_000, local); // warp
    expect(c.toLocal(9_000_010)).toBe(local + 10);
  });
});
