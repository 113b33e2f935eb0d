import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisKeys } from '../../src/redis/keys.js';
import { FixedWindowRateLimiter } from '../../src/redis/rate-limiter.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('FixedWindowRateLimiter (real Redis)', () => {
  let t: TestRedis;
  let now = 0;
  const rule = { endpoint: 'POST /auctions/:id/bid', limit: 60, windowMs: 60_000 };

  beforeAll(async () => {
    t = await createTestRedis('rate-limiter');
  });
  afterAll(() => t.cleanup());

  const limiter = () => new FixedWindowRateLimiter(t.redis, createRedisKeys(t.prefix), () => now);

  it('allows the limit within a minute, refuses the next, and opens again in the next minute', async () => {
    now = 1_700_000_000_000 - (1_700_000_000_000 % 60_000) + 15_000; // 15 s into a minute
    const l = limiter();
    const decisions = [];
    for (let i = 0; i < 61; i++) decisions.push(await l.hit(rule, 'key-a'));
    expect(decisions.slice(0, 60).every((d) => d.allowed)).toBe(true);
    expect(decisions[59]!.remaining).toBe(0);
    expect(decisions[60]).toEqual({ allowed: false, limit: 60, remaining: 0, resetSeconds: 45 });

    now += 45_000; // the next clock-aligned bucket
    expect((await l.hit(rule, 'key-a')).allowed).toBe(true);
  });

  it('keeps subjects and endpoints apart', async () => {
    const l = limiter();
    now += 60_000;
    for (let i = 0; i < 60; i++) await l.hit(rule, 'key-b');
    expect((await l.hit(rule, 'key-b')).allowed).toBe(false);
    expect((await l.hit(rule, 'key-c')).allowed).toBe(true);
    expect((await l.hit({ ...rule, endpoint: 'GET /auctions' }, 'key-b')).allowed).toBe(true);
  });

  it('is shared by two limiters (two API instances) on one Redis, counting concurrent hits exactly', async () => {
    now += 60_000;
    const [a, b] = [limiter(), limiter()];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).hit(rule, 'key-d')),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    expect((await a.peek(rule, 'key-d')).remaining).toBe(0);
  });

  it('peek does not count', async () => {
    now += 60_000;
    const l = limiter();
    await l.hit(rule, 'key-e');
    await l.peek(rule, 'key-e');
    expect((await l.peek(rule, 'key-e')).remaining).toBe(59);
  });
});
