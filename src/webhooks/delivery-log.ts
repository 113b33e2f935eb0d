import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/keys.js';

/** One delivery attempt, as `GET /webhooks/:id/deliveries` shows it. */
export interface DeliveryAttempt {
  readonly eventId: string;
  readonly event: string;
  /** 1 for the first attempt of an event. */
  readonly attempt: number;
  /** Unix ms when the attempt finished. */
  readonly at: number;
  readonly success: boolean;
  /** The receiver's status, null when no response came (refused, timeout, connection error). */
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  /** The start of the receiver's response body. */
  readonly response: string | null;
}

/**
 * Attempts kept per subscription at most: the retention bounds the log in time, this in size (a
 * busy subscription makes thousands of attempts a day; the route shows the newest 100).
 */
export const MAX_LOGGED_ATTEMPTS = 1_000;

/**
 * Attempts per subscription in a sorted set by time; older than the retention, or beyond the
 * newest `MAX_LOGGED_ATTEMPTS`, are dropped, and the set expires with the retention.
 */
export class DeliveryLog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly retentionMs: number,
  ) {}

  async record(subscriptionId: string, attempt: DeliveryAttempt): Promise<void> {
    const key = this.keys.webhookDeliveries(subscriptionId);
    await this.redis
      .multi()
      .zadd(key, attempt.at, JSON.stringify(attempt))
      .zremrangebyscore(key, '-inf', `(${attempt.at - this.retentionMs}`)
      .zremrangebyrank(key, 0, -MAX_LOGGED_ATTEMPTS - 1)
      .pexpire(key, this.retentionMs)
      .exec();
  }

  /** Newest first, within the retention at `nowMs`. */
  async list(subscriptionId: string, nowMs: number, limit = 100): Promise<DeliveryAttempt[]> {
    const rows = await this.redis.zrevrangebyscore(
      this.keys.webhookDeliveries(subscriptionId),
      '+inf',
      nowMs - this.retentionMs,
      'LIMIT',
      0,
      limit,
    );
    return rows.map((row) => JSON.parse(row) as DeliveryAttempt);
  }

  async clear(subscriptionId: string): Promise<void> {
    await this.redis.del(this.keys.webhookDeliveries(subscriptionId));
  }
}
