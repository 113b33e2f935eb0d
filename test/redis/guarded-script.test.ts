/**
 * runGuarded: the guard (a key's checks and hit, or an IP's hit) and an inner script in one
 * script call. The inner script here counts its own runs, so each test sees whether it ran.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/redis/api-key-store.js';
import { AuthenticatedHits } from '../../src/redis/authenticated-hit.js';
import { runGuarded } from '../../src/redis/guarded-script.js';
import { createRedisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { LuaScript, type ScriptCall } from '../../src/redis/lua-script.js';
import { FixedWindowRateLimiter } from '../../src/redis/rate-limiter.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const MINUTE = 60_000;
// The inner script uses its own KEYS and ARGV (not the composed script's) and returns a string.
const COUNT_RUNS = new LuaScript(`
local n = redis.call('INCR', KEYS[1])
return ARGV[1] .. ':' .. n .. ':' .. #KEYS .. ':' .. #ARGV`);

describe('runGuarded: the guard and an inner script in one round trip (real Redis)', () => {
  let t: TestRedis;
  let keys: RedisKeys;
  let store: ApiKeyStore;
  let limiter: FixedWindowRateLimiter;
  let hits: AuthenticatedHits;
  const now = 1_700_000_000_000 - (1_700_000_000_000 % MINUTE) + 15_000; // 15 s into a minute
  const rule = { endpoint: 'GET /auctions', windowMs: MINUTE };
  let counter: string;
  let inner: ScriptCall;

  beforeAll(async () => {
    t = await createTestRedis('guarded-script');
    keys = createRedisKeys(t.prefix);
    store = new ApiKeyStore(t.redis, keys);
    limiter = new FixedWindowRateLimiter(t.redis, keys, () => now);
    hits = new AuthenticatedHits(t.redis, keys, limiter);
    counter = `${t.prefix}inner-runs`;
    inner = { script: COUNT_RUNS, keys: [counter], args: ['ran', 'second'] };
  });
  afterAll(() => t.cleanup());

  const runs = async () => Number((await t.redis.get(counter)) ?? 0);
  const keyGuard = (rawKey: string) => {
    const hit = hits.hitCall(rawKey, rule, now);
    if (!hit) throw new Error('malformed key in a test');
    return hit;
  };

  it('runs the inner script with its own keys and arguments for a valid key within its limit', async () => {
    const { key, record } = await store.create(
      { name: 'k', type: 'readonly', walletAddress: WALLET },
      'test',
      0,
    );
    const hit = keyGuard(key);
    const before = await runs();
    const reply = await runGuarded(t.redis, { mode: 'key', ...hit }, 2, inner);
    expect(reply.ran).toBe(true);
    expect(reply.inner).toBe(`ran:${before + 1}:1:2`);
    expect(hits.resultOf(reply.guard, hit)).toEqual({ ok: true, record, count: 1, resetMs: 45_000 });
    // Counted in the same bucket as FixedWindowRateLimiter.hit.
    expect((await limiter.peek({ ...rule, limit: 2 }, `key:${record.id}`)).remaining).toBe(1);

    expect((await runGuarded(t.redis, { mode: 'key', ...hit }, 2, inner)).ran).toBe(true);
    // Over the limit: counted (as on the guard's own path), the inner script not run.
    const refused = await runGuarded(t.redis, { mode: 'key', ...hit }, 2, inner);
    expect(refused.ran).toBe(false);
    expect(hits.resultOf(refused.guard, hit)).toMatchObject({ ok: true, count: 3 });
    expect(await runs()).toBe(before + 2);
  });

  it('refuses unknown and revoked keys without counting them or running the inner script', async () => {
    const created = await store.create({ name: 'k', type: 'agent', walletAddress: WALLET }, 'test', 0);
    await store.revoke(created.record.accountId, created.record.id, 1);
    const before = await runs();
    for (const [rawKey, reason] of [
      [created.key, 'revoked'],
      [`sk_test_${'1'.repeat(32)}`, 'unknown'],
    ] as const) {
      const hit = keyGuard(rawKey);
      const reply = await runGuarded(t.redis, { mode: 'key', ...hit }, 1_000, inner);
      expect(reply.ran).toBe(false);
      expect(hits.resultOf(reply.guard, hit)).toEqual({ ok: false, reason });
    }
    expect(await runs()).toBe(before);
    expect((await limiter.peek({ ...rule, limit: 10 }, `key:${created.record.id}`)).remaining).toBe(10);
  });

  it('counts an anonymous IP in the limiter’s own bucket, with its expiry, and stops at the limit', async () => {
    const { key, resetMs } = limiter.bucket(rule, 'ip:203.0.113.7');
    expect(resetMs).toBe(45_000);
    const guard = { mode: 'ip' as const, bucketKey: key, ttlMs: 65_000 };
    const before = await runs();
    const first = await runGuarded(t.redis, guard, 1, inner);
    expect(first).toEqual({ guard: 'ip 1', ran: true, inner: `ran:${before + 1}:1:2` });
    const ttl = await t.redis.pttl(key);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(65_000);
    const refused = await runGuarded(t.redis, guard, 1, inner);
    expect(refused).toEqual({ guard: 'ip 2', ran: false, inner: undefined });
    expect(await runs()).toBe(before + 1);
    // FixedWindowRateLimiter.hit sees the same bucket.
    expect((await limiter.hit({ ...rule, limit: 3 }, 'ip:203.0.113.7')).remaining).toBe(0);
  });

  it('returns an error of the inner script after the verdict, the request counted', async () => {
    const failing = new LuaScript(`
redis.call('INCR', KEYS[1])
return redis.call('HGET', KEYS[1], 'field')`);
    const { key } = limiter.bucket(rule, 'ip:203.0.113.9');
    const before = await runs();
    const reply = await runGuarded(t.redis, { mode: 'ip', bucketKey: key, ttlMs: 65_000 }, 5, {
      script: failing,
      keys: [counter],
      args: [],
    });
    expect(reply.guard).toBe('ip 1');
    expect(reply.ran).toBe(true);
    expect(reply.error?.message).toMatch(/WRONGTYPE/);
    expect(await runs()).toBe(before + 1);
  });

  it('returns the inner reply intact, newlines and spaces included, after a one- or two-line verdict', async () => {
    const tricky = new LuaScript(`return ARGV[1]`);
    const { key, record } = await store.create(
      { name: 'k', type: 'agent', walletAddress: WALLET },
      'test',
      0,
    );
    const texts = ['ok 9 9\n{"a":1}\n s \n\n', '', '\n', ' 2\nok 1 1'];
    for (const [i, text] of texts.entries()) {
      // The first call has a cold cache (the verdict carries the fields), the others a warm one.
      const hit = keyGuard(key);
      const reply = await runGuarded(t.redis, { mode: 'key', ...hit }, 100, {
        script: tricky,
        keys: [],
        args: [text],
      });
      expect(reply).toMatchObject({ ran: true, inner: text });
      expect(reply.guard.includes('\n')).toBe(i === 0);
      expect(hits.resultOf(reply.guard, hit)).toEqual({ ok: true, record, count: i + 1, resetMs: 45_000 });
    }
    const ip = { mode: 'ip' as const, bucketKey: limiter.bucket(rule, 'ip:203.0.113.11').key, ttlMs: 65_000 };
    for (const text of texts) {
      expect(await runGuarded(t.redis, ip, 100, { script: tricky, keys: [], args: [text] })).toMatchObject({
        ran: true,
        inner: text,
      });
    }
  });

  it('returns an integer or a nil inner reply as the script alone would', async () => {
    const ip = { mode: 'ip' as const, bucketKey: limiter.bucket(rule, 'ip:203.0.113.12').key, ttlMs: 65_000 };
    for (const [source, inner] of [
      ['return 42', 42],
      ['return -7', -7],
      ['return nil', null],
      ['return false', null],
    ] as const) {
      const script = new LuaScript(source);
      expect(await script.run(t.redis, [], [])).toBe(inner);
      expect(await runGuarded(t.redis, ip, 100, { script, keys: [], args: [] })).toMatchObject({
        ran: true,
        inner,
      });
    }
  });

  it('returns an inner error after a key’s verdict, the key counted and its record decoded', async () => {
    const failing = new LuaScript(`return redis.call('HGET', KEYS[1], 'field')`);
    const { key, record } = await store.create(
      { name: 'k', type: 'agent', walletAddress: WALLET },
      'test',
      0,
    );
    await t.redis.set(counter, '0');
    for (const count of [1, 2]) {
      const hit = keyGuard(key);
      const reply = await runGuarded(t.redis, { mode: 'key', ...hit }, 5, {
        script: failing,
        keys: [counter],
        args: [],
      });
      expect(reply.ran).toBe(true);
      expect(reply.error?.message).toMatch(/^WRONGTYPE/);
      expect(hits.resultOf(reply.guard, hit)).toEqual({ ok: true, record, count, resetMs: 45_000 });
    }
  });
});
