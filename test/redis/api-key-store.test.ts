import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/redis/api-key-store.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

describe('ApiKeyStore (real Redis)', () => {
  let t: TestRedis;
  let store: ApiKeyStore;

  beforeAll(async () => {
    t = await createTestRedis('api-keys');
    store = new ApiKeyStore(t.redis, createRedisKeys(t.prefix));
  });
  afterAll(() => t.cleanup());

  it('returns the key once and stores only its hash', async () => {
    const { key, record } = await store.create(
      { name: 'bot', type: 'agent', walletAddress: WALLET },
      'test',
      1_000,
    );
    expect(key).toMatch(/^sk_test_[1-9A-HJ-NP-Za-km-z]{20,}$/);
    expect(record.prefix).toBe(key.slice(0, 12));
    const everything = JSON.stringify(
      await Promise.all((await t.redis.keys(`${t.prefix}*`)).map((k) => t.redis.dump(k))),
    );
    expect(everything).not.toContain(key.slice(8));
    expect(await store.authenticate(key, 2_000)).toEqual({ ok: true, record });
  });

  it('refuses malformed, unknown, expired and revoked keys', async () => {
    expect(await store.authenticate('nope', 0)).toEqual({ ok: false, reason: 'malformed' });
    expect(await store.authenticate(`sk_test_${'1'.repeat(32)}`, 0)).toEqual({
      ok: false,
      reason: 'unknown',
    });

    const expiring = await store.create(
      { name: 'short', type: 'developer', walletAddress: WALLET, expirationDays: 1 },
      'live',
      0,
    );
    expect((await store.authenticate(expiring.key, 86_399_999)).ok).toBe(true);
    expect(await store.authenticate(expiring.key, 86_400_000)).toEqual({ ok: false, reason: 'expired' });

    const revoked = await store.create({ name: 'gone', type: 'agent', walletAddress: WALLET }, 'test', 0);
    expect(await store.revoke('acct_other', revoked.record.id, 5)).toBeNull();
    expect((await store.revoke(revoked.record.accountId, revoked.record.id, 5))?.revokedAt).toBe(5);
    expect(await store.authenticate(revoked.key, 6)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('groups keys created with an existing key into its account', async () => {
    const first = await store.create({ name: 'root', type: 'developer', walletAddress: WALLET }, 'test', 10);
    const second = await store.create(
      { name: 'child', type: 'readonly', walletAddress: WALLET, accountId: first.record.accountId },
      'test',
      11,
    );
    const listed = await store.listAccount(first.record.accountId);
    expect(listed.map((r) => r.id)).toEqual([first.record.id, second.record.id]);
  });
});
