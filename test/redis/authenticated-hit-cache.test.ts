/**
 * AuthenticatedHits keeps decoded records by key hash and revision: a warm request's reply carries
 * no fields, yet revocation, expiry and every write to the record hold on the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore, apiKeyHash } from '../../src/redis/api-key-store.js';
import {
  AUTHENTICATED_HIT_LUA,
  AuthenticatedHits,
  type KeyedHitCall,
} from '../../src/redis/authenticated-hit.js';
import { createRedisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { LuaScript } from '../../src/redis/lua-script.js';
import { FixedWindowRateLimiter } from '../../src/redis/rate-limiter.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const MINUTE = 60_000;
const SCRIPT = new LuaScript(AUTHENTICATED_HIT_LUA);

describe('AuthenticatedHits: the record cache by revision (real Redis)', () => {
  let t: TestRedis;
  let keys: RedisKeys;
  let store: ApiKeyStore;
  let limiter: FixedWindowRateLimiter;
  let hits: AuthenticatedHits;
  const now = 1_700_000_000_000 - (1_700_000_000_000 % MINUTE) + 15_000;
  const rule = { endpoint: 'GET /users/:address/analytics', windowMs: MINUTE };

  beforeAll(async () => {
    t = await createTestRedis('authenticated-hit-cache');
    keys = createRedisKeys(t.prefix);
    store = new ApiKeyStore(t.redis, keys);
    limiter = new FixedWindowRateLimiter(t.redis, keys, () => now);
    hits = new AuthenticatedHits(t.redis, keys, limiter);
  });
  afterAll(() => t.cleanup());

  const newKey = (expirationDays?: number, name = 'k') =>
    store.create({ name, type: 'agent', walletAddress: WALLET, expirationDays }, 'test', 0);
  /** The script's raw reply to `hits`' next call for `rawKey`, and that call. */
  const raw = async (rawKey: string, nowMs = 1, on = hits) => {
    const call = on.hitCall(rawKey, rule, nowMs) as KeyedHitCall;
    return { call, reply: String(await SCRIPT.run(t.redis, call.keys, call.args)) };
  };

  it('sends the fields once, then a one-line reply, reusing the decoded record', async () => {
    // A name is the caller's text: the JSON part must keep its newline escaped.
    const { key, record } = await newKey(undefined, 'bot "é" ✓\nline 2 \\ /x');
    const cold = await raw(key);
    expect(cold.reply).toMatch(/^ok 1 1\n\{[^\n]*\}$/);
    const first = hits.resultOf(cold.reply, cold.call);
    expect(first).toEqual({ ok: true, record, count: 1, resetMs: 45_000 });

    const warm = await raw(key);
    expect(warm.reply).toBe('ok 2 1');
    const second = hits.resultOf(warm.reply, warm.call);
    expect(second).toEqual({ ok: true, record, count: 2, resetMs: 45_000 });
    // The very object decoded from the first reply: nothing rebuilt.
    expect(second.ok && first.ok && second.record === first.record).toBe(true);
    const third = await hits.authenticateAndHit(key, null, 1);
    expect(third.ok && first.ok && third.record === first.record && third.count === null).toBe(true);
  });

  it('refuses a revoked key on the very next request, the cache warm, and forgets it', async () => {
    const { key, record } = await newKey();
    for (const nowMs of [1, 2]) expect((await hits.authenticateAndHit(key, rule, nowMs)).ok).toBe(true);
    expect(hits.hitCall(key, rule, 3)?.cached?.record).toEqual(record);
    await store.revoke(record.accountId, record.id, 3);
    expect(await hits.authenticateAndHit(key, rule, 4)).toEqual({ ok: false, reason: 'revoked' });
    expect(hits.hitCall(key, rule, 5)?.cached).toBeUndefined();
    // Two counted requests, the refused one not counted.
    expect((await limiter.peek({ ...rule, limit: 60 }, `key:${record.id}`)).remaining).toBe(58);
  });

  it('checks revocation on every request, not only when the revision moved', async () => {
    const { key, record } = await newKey();
    for (const nowMs of [1, 2]) expect((await hits.authenticateAndHit(key, rule, nowMs)).ok).toBe(true);
    // Written by hand, without the revision's bump: the cached revision still matches.
    await t.redis.hset(keys.apiKey(record.id), 'revokedAt', '3');
    expect(await hits.authenticateAndHit(key, rule, 4)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('refuses an expired key on the very next request, the cache warm', async () => {
    const { key } = await newKey(1);
    for (const nowMs of [1, 86_399_999])
      expect((await hits.authenticateAndHit(key, rule, nowMs)).ok).toBe(true);
    expect(await hits.authenticateAndHit(key, rule, 86_400_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('sees a new analytics limit on the very next request, the cache warm', async () => {
    const { key, record } = await newKey();
    for (const nowMs of [1, 2]) await hits.authenticateAndHit(key, rule, nowMs);
    await store.setAnalyticsRateLimit(record.id, 7);
    const raised = await raw(key, 3);
    expect(raised.reply).toMatch(/^ok 3 2\n\{/);
    expect(hits.resultOf(raised.reply, raised.call)).toMatchObject({
      ok: true,
      record: { analyticsRateLimit: 7 },
    });
    await store.setAnalyticsRateLimit(record.id, null);
    expect(await hits.authenticateAndHit(key, rule, 4)).toMatchObject({
      record: { analyticsRateLimit: null },
    });
    expect((await raw(key, 5)).reply).toBe('ok 5 3');
  });

  it('decodes a reply with the record of the revision it was asked with, whatever came since', async () => {
    const { key, record } = await newKey();
    await hits.authenticateAndHit(key, rule, 1);
    const slow = await raw(key, 2); // its reply is decoded only after a newer one
    expect(slow.reply).toBe('ok 2 1');
    await store.setAnalyticsRateLimit(record.id, 9);
    expect(await hits.authenticateAndHit(key, rule, 3)).toMatchObject({ record: { analyticsRateLimit: 9 } });
    expect(hits.resultOf(slow.reply, slow.call)).toEqual({ ok: true, record, count: 2, resetMs: 45_000 });
  });

  it('authenticates a record written without a revision, reading its fields every time', async () => {
    const rawKey = `sk_test_${'2'.repeat(32)}`;
    const hash = apiKeyHash(rawKey);
    const id = 'key_legacy';
    const fields = {
      id,
      accountId: 'acct_legacy',
      prefix: rawKey.slice(0, 12),
      name: 'written before revisions',
      type: 'developer',
      walletAddress: WALLET,
      createdAt: '5',
      expiresAt: '',
      revokedAt: '',
      analyticsRateLimit: '30',
      hash,
    };
    await t.redis.hset(keys.apiKey(id), fields);
    await t.redis.set(keys.apiKeyIdByHash(hash), id);
    const fresh = new AuthenticatedHits(t.redis, keys, limiter);
    const expected = { ...fields, createdAt: 5, expiresAt: null, revokedAt: null, analyticsRateLimit: 30 };
    const { hash: _, ...record } = expected;
    for (const count of [1, 2, 3]) {
      const { reply, call } = await raw(rawKey, 1, fresh);
      expect(reply.startsWith(`ok ${count} -\n{`)).toBe(true);
      expect(fresh.resultOf(reply, call)).toEqual({ ok: true, record, count, resetMs: 45_000 });
      expect(fresh.cachedRecords).toBe(0);
    }
    // Its first write gives it a revision: cached from then on.
    await store.setAnalyticsRateLimit(id, 31);
    expect(await fresh.authenticateAndHit(rawKey, rule, 1)).toMatchObject({
      record: { analyticsRateLimit: 31 },
    });
    expect((await raw(rawKey, 1, fresh)).reply).toBe('ok 5 1');
  });

  it('keeps at most cacheSize records, dropping the oldest tenth at once', async () => {
    const small = new AuthenticatedHits(t.redis, keys, limiter, { cacheSize: 20 });
    const created = [];
    const sizes = [];
    for (let i = 0; i < 45; i++) {
      created.push(await newKey());
      expect((await small.authenticateAndHit(created[i]!.key, null, 1)).ok).toBe(true);
      sizes.push(small.cachedRecords);
    }
    expect(Math.max(...sizes)).toBe(20);
    // Over by one: down to 18 (a tenth below the bound), not one eviction per insertion.
    expect(sizes.slice(19, 24)).toEqual([20, 18, 19, 20, 18]);
    expect(small.hitCall(created[0]!.key, null, 1)?.cached).toBeUndefined();
    expect(small.hitCall(created[44]!.key, null, 1)?.cached?.rev).toBe('1');
    // An evicted key still authenticates: its fields come again.
    const again = await raw(created[0]!.key, 1, small);
    expect(again.reply).toMatch(/^ok \d+ 1\n\{/);
  });
});
