import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../src/core/errors.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import {
  MAX_SUBSCRIPTIONS_PER_KEY,
  WebhookSubscriptionStore,
} from '../../src/webhooks/subscription-store.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('WebhookSubscriptionStore (real Redis)', () => {
  let t: TestRedis;
  let store: WebhookSubscriptionStore;

  beforeAll(async () => {
    t = await createTestRedis('webhook-subscriptions');
    store = new WebhookSubscriptionStore(t.redis, createRedisKeys(t.prefix));
  });
  afterAll(() => t.cleanup());

  it('creates a subscription with a whsec_ secret of 32 random bytes, shown only at creation', async () => {
    const { subscription, secret } = await store.create(
      'key_a',
      { url: 'https://a.example/hook', events: ['auction.bid'] },
      1_000,
    );
    expect(subscription).toEqual({
      id: expect.stringMatching(/^whk_[1-9A-HJ-NP-Za-km-z]{16,}$/),
      ownerKeyId: 'key_a',
      url: 'https://a.example/hook',
      events: ['auction.bid'],
      active: true,
      createdAt: 1_000,
      lastDelivery: null,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(await store.get('key_a', subscription.id)).toEqual(subscription);
    expect(await store.list('key_a')).toEqual([subscription]);
  });

  it('hides a subscription from every other key', async () => {
    const { subscription } = await store.create(
      'key_b',
      { url: 'https://b.example/', events: ['auction.created'] },
      2_000,
    );
    expect(await store.get('key_other', subscription.id)).toBeNull();
    expect(await store.update('key_other', subscription.id, { active: false })).toBeNull();
    expect(await store.delete('key_other', subscription.id)).toBe(false);
    expect(await store.list('key_other')).toEqual([]);
    expect(await store.get('key_b', subscription.id)).toEqual(subscription);
  });

  it('fans out by event to active subscriptions only, following updates and deletes', async () => {
    const owner = 'key_fanout';
    const { subscription: s1, secret } = await store.create(
      owner,
      { url: 'https://1.example/', events: ['auction.settled', 'auction.outbid'] },
      3_000,
    );
    const { subscription: s2 } = await store.create(
      owner,
      { url: 'https://2.example/', events: ['auction.settled'] },
      3_001,
    );
    const ids = async (event: Parameters<typeof store.subscribersOf>[0]) =>
      (await store.subscribersOf(event)).map((s) => s.id).sort();

    expect(await ids('auction.settled')).toEqual([s1.id, s2.id].sort());
    expect((await store.subscribersOf('auction.outbid'))[0]).toEqual({
      ...s1,
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });

    await store.update(owner, s1.id, { events: ['auction.cancelled'] });
    expect(await ids('auction.settled')).toEqual([s2.id]);
    expect(await ids('auction.outbid')).toEqual([]);
    expect(await ids('auction.cancelled')).toEqual([s1.id]);

    await store.update(owner, s2.id, { active: false });
    expect(await ids('auction.settled')).toEqual([]);
    await store.update(owner, s2.id, { active: true });
    expect(await ids('auction.settled')).toEqual([s2.id]);

    await store.delete(owner, s1.id);
    const keys = createRedisKeys(t.prefix);
    for (const event of ['auction.settled', 'auction.outbid', 'auction.cancelled']) {
      expect(await t.redis.sismember(keys.webhooksByEvent(event), s1.id)).toBe(0);
    }
    expect(await store.list(owner)).toEqual([{ ...s2, active: true }]);
  });

  it(`never lets concurrent creates exceed ${MAX_SUBSCRIPTIONS_PER_KEY} per key`, async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: MAX_SUBSCRIPTIONS_PER_KEY + 10 }, (_, i) =>
        store.create('key_full', { url: `https://${i}.example/`, events: ['auction.bid'] }, 4_000 + i),
      ),
    );
    const refused = attempts.filter((a) => a.status === 'rejected');
    expect(attempts.length - refused.length).toBe(MAX_SUBSCRIPTIONS_PER_KEY);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(isAppError(r.reason, 'INVALID_REQUEST')).toBe(true);
    expect(await store.list('key_full')).toHaveLength(MAX_SUBSCRIPTIONS_PER_KEY);

    const [first] = await store.list('key_full');
    expect(await store.delete('key_full', first!.id)).toBe(true);
    await expect(
      store.create('key_full', { url: 'https://again.example/', events: ['auction.bid'] }, 5_000),
    ).resolves.toMatchObject({ subscription: { url: 'https://again.example/' } });
  });
});
