import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/redis/api-key-store.js';
import { AuthenticatedHits } from '../../src/redis/authenticated-hit.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { FixedWindowRateLimiter } from '../../src/redis/rate-limiter.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const MINUTE = 60_000;

describe('AuthenticatedHits: authentication and the rate-limit hit in one script (real Redis)', () => {
  let t: TestRedis;
  let store: ApiKeyStore;
  let limiter: FixedWindowRateLimiter;
  let hits: AuthenticatedHits;
  let now = 1_700_000_000_000 - (1_700_000_000_000 % MINUTE) + 15_000; // 15 s into a minute
  const rule = { endpoint: 'POST /auctions/:id/bid', windowMs: MINUTE };

  beforeAll(async () => {
    t = await createTestRedis('authenticated-hit');
    const keys = createRedisKeys(t.prefix);
    store = new ApiKeyStore(t.redis, keys);
    limiter = new FixedWindowRateLimiter(t.redis, keys, () => now);
    hits = new AuthenticatedHits(t.redis, keys, limiter);
  });
  afterAll(() => t.cleanup());

  const newKey = (type: 'agent' | 'readonly' = 'agent', expirationDays?: number) =>
    store.create({ name: 'k', type, walletAddress: WALLET, expirationDays }, 'test', 0);

  it('answers like ApiKeyStore.authenticate for malformed, unknown, expired and revoked keys, counting nothing', async () => {
    expect(await hits.authenticateAndHit('nope', rule, 0)).toEqual({ ok: false, reason: 'malformed' });
    expect(await hits.authenticateAndHit(`sk_test_${'1'.repeat(32)}`, rule, 0)).toEqual({
      ok: false,
      reason: 'unknown',
    });

    const expiring = await newKey('agent', 1);
    expect((await hits.authenticateAndHit(expiring.key, rule, 86_399_999)).ok).toBe(true);
    expect(await hits.authenticateAndHit(expiring.key, rule, 86_400_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await store.authenticate(expiring.key, 86_400_000)).toEqual({ ok: false, reason: 'expired' });

    const revoked = await newKey();
    expect((await hits.authenticateAndHit(revoked.key, rule, 1)).ok).toBe(true);
    await store.revoke(revoked.record.accountId, revoked.record.id, 2);
    // The very next request after the revocation is refused (the script checks every request).
    expect(await hits.authenticateAndHit(revoked.key, rule, 3)).toEqual({ ok: false, reason: 'revoked' });
    // The refused requests were not counted: one hit each, from their first (accepted) request.
    for (const k of [expiring, revoked]) {
      expect((await limiter.peek({ ...rule, limit: 60 }, `key:${k.record.id}`)).remaining).toBe(59);
    }
  });

  it('returns the record and counts in the same bucket as FixedWindowRateLimiter.hit', async () => {
    const { key, record } = await newKey();
    const first = await hits.authenticateAndHit(key, rule, 1);
    expect(first).toEqual({ ok: true, record, count: 1, resetMs: 45_000 });
    await limiter.hit({ ...rule, limit: 60 }, `key:${record.id}`);
    const third = await hits.authenticateAndHit(key, rule, 1);
    expect(third.ok && third.count).toBe(3);
    // The bucket expires like the limiter's (window + 5 s).
    const bucket = createRedisKeys(t.prefix).rateLimitBucket(
      rule.endpoint,
      `key:${record.id}`,
      (now / MINUTE) | 0,
    );
    const ttl = await t.redis.pttl(bucket);
    expect(ttl).toBeGreaterThan(MINUTE);
    expect(ttl).toBeLessThanOrEqual(MINUTE + 5_000);
  });

  it('decides exactly at the limit, with a reset aligned to the clock, and opens in the next window', async () => {
    now += MINUTE;
    const { key } = await newKey();
    const decisions = [];
    for (let i = 0; i < 61; i++) {
      const r = await hits.authenticateAndHit(key, rule, 1);
      if (!r.ok || r.count === null) throw new Error('expected a counted hit');
      decisions.push(hits.decide(60, r.count, r.resetMs));
    }
    expect(decisions.slice(0, 60).every((d) => d.allowed)).toBe(true);
    expect(decisions[59]).toEqual({ allowed: true, limit: 60, remaining: 0, resetSeconds: 45 });
    expect(decisions[60]).toEqual({ allowed: false, limit: 60, remaining: 0, resetSeconds: 45 });
    now += 45_000; // the next clock-aligned window
    const next = await hits.authenticateAndHit(key, rule, 1);
    expect(next.ok && next.count).toBe(1);
    expect(next.ok && next.resetMs).toBe(MINUTE);
  });

  it('counts concurrent requests exactly', async () => {
    now += MINUTE;
    const { key } = await newKey();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => hits.authenticateAndHit(key, rule, 1)),
    );
    const counts = results.map((r) => (r.ok ? r.count : null)).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(counts).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('does not count without a rule, nor keys of the refused type', async () => {
    now += MINUTE;
    const readonly = await newKey('readonly');
    const refused = await hits.authenticateAndHit(readonly.key, { ...rule, refusedType: 'readonly' }, 1);
    expect(refused).toMatchObject({ ok: true, count: null, record: { type: 'readonly' } });
    const uncounted = await hits.authenticateAndHit(readonly.key, null, 1);
    expect(uncounted).toMatchObject({ ok: true, count: null });
    expect((await limiter.peek({ ...rule, limit: 60 }, `key:${readonly.record.id}`)).remaining).toBe(60);
    const counted = await hits.authenticateAndHit(readonly.key, rule, 1);
    expect(counted).toMatchObject({ ok: true, count: 1 });
  });
});
