/**
 * Webhook delivery state stays bounded: the delivery log of a busy subscription keeps at most
 * `MAX_LOGGED_ATTEMPTS` attempts within the retention and expires with it, and the queue's jobs
 * (whose ids dedupe the fan-out) are removed by age and count once finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { type DeliveryAttempt, DeliveryLog, MAX_LOGGED_ATTEMPTS } from '../../src/webhooks/delivery-log.js';
import { createDeliveryQueue } from '../../src/webhooks/delivery-queue.js';
import { DEFAULT_DELIVERY_SETTINGS } from '../../src/webhooks/delivery-settings.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const DAY = 86_400_000;
let t: TestRedis;
let keys: RedisKeys;

beforeAll(async () => {
  t = await createTestRedis('webhook-bounded');
  keys = createRedisKeys(t.prefix);
});

afterAll(async () => {
  await t?.cleanup();
});

const attempt = (n: number, at: number): DeliveryAttempt => ({
  eventId: `evt_${n}`,
  event: 'auction.bid',
  attempt: 1,
  at,
  success: true,
  statusCode: 200,
  durationMs: 3,
  error: null,
  response: 'ok',
});

describe('webhook delivery state stays bounded', () => {
  it('keeps the newest attempts up to the cap, within the retention, with a TTL', async () => {
    const retentionMs = 30 * DAY;
    const log = new DeliveryLog(t.redis, keys, retentionMs);
    const now = Date.now();
    const total = MAX_LOGGED_ATTEMPTS + 50;
    // Attempts one second apart, the first one older than the retention at the end.
    const first = now - retentionMs - 10_000;
    for (let n = 0; n < 20; n++) await log.record('whk_old', attempt(n, first + n * 1_000));
    await log.record('whk_old', attempt(20, now));
    expect(await t.redis.zcard(keys.webhookDeliveries('whk_old'))).toBe(11);

    const pipeline = [];
    for (let n = 0; n < total; n++) pipeline.push(log.record('whk_busy', attempt(n, now - total + n)));
    await Promise.all(pipeline);
    const key = keys.webhookDeliveries('whk_busy');
    expect(await t.redis.zcard(key)).toBe(MAX_LOGGED_ATTEMPTS);
    const listed = await log.list('whk_busy', now, 5);
    expect(listed.map((a) => a.eventId)).toEqual(Array.from({ length: 5 }, (_, i) => `evt_${total - 1 - i}`));
    const ttl = await t.redis.pttl(key);
    expect(ttl).toBeGreaterThan(retentionMs - 60_000);
    expect(ttl).toBeLessThanOrEqual(retentionMs);
  });

  it('removes finished delivery jobs (the fan-out dedupe ids) by age and count', async () => {
    const queue = createDeliveryQueue({ redisUrl: t.url, keys }, DEFAULT_DELIVERY_SETTINGS);
    try {
      const { removeOnComplete, removeOnFail } = queue.defaultJobOptions;
      expect(removeOnComplete).toEqual({ age: expect.any(Number), count: expect.any(Number) });
      expect(removeOnFail).toEqual({ age: DEFAULT_DELIVERY_SETTINGS.deliveryLogRetentionMs / 1_000 });
      // Long enough to dedupe a fan-out re-read (pending entries are re-read right after a restart).
      expect((removeOnComplete as { age: number }).age).toBeGreaterThanOrEqual(3_600);
    } finally {
      await queue.close();
    }
  });
});
