import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../redis/keys.js';

// Each script only touches an existing subscription, so a delivery finishing after a DELETE
// cannot bring the hash back.
const ROTATE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'ownerKeyId') ~= ARGV[1] then return 0 end
local current = redis.call('HGET', KEYS[1], 'secret')
redis.call('HSET', KEYS[1], 'previousSecret', current, 'previousSecretExpiresAt', ARGV[2], 'secret', ARGV[3])
return 1`;
const SUCCESS_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastDelivery', ARGV[1], 'failingSince', '')
return 1`;
// Returns 1 when this failure ends a streak longer than the window and deactivates the subscription.
const FAILURE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local since = tonumber(redis.call('HGET', KEYS[1], 'failingSince') or '')
if not since then
  redis.call('HSET', KEYS[1], 'failingSince', ARGV[1])
  since = tonumber(ARGV[1])
end
if tonumber(ARGV[1]) - since >= tonumber(ARGV[2]) and redis.call('HGET', KEYS[1], 'active') == '1' then
  redis.call('HSET', KEYS[1], 'active', '0')
  return 1
end
return 0`;
const DEACTIVATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'active', '0')
return 1`;

/**
 * What deliveries change on a subscription: its secret (rotation with an overlap), `lastDelivery`,
 * the failure streak that deactivates it after a window of continuous failure, and deactivation
 * on 410 Gone.
 */
export class SubscriptionDeliveryState {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * A new secret; the previous one keeps signing for `overlapMs`. Null when the key does not own
   * the subscription.
   */
  async rotateSecret(
    ownerKeyId: string,
    id: string,
    nowMs: number,
    overlapMs: number,
  ): Promise<{ secret: string; previousSecretExpiresAt: number } | null> {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const previousSecretExpiresAt = nowMs + overlapMs;
    const rotated = await this.redis.eval(
      ROTATE_SCRIPT,
      1,
      this.keys.webhook(id),
      ownerKeyId,
      String(previousSecretExpiresAt),
      secret,
    );
    return rotated === 1 ? { secret, previousSecretExpiresAt } : null;
  }

  async recordSuccess(id: string, nowMs: number): Promise<void> {
    await this.redis.eval(SUCCESS_SCRIPT, 1, this.keys.webhook(id), String(nowMs));
  }

  /** True when this failure deactivated the subscription (failing for `deactivateAfterMs`). */
  async recordFailure(id: string, nowMs: number, deactivateAfterMs: number): Promise<boolean> {
    const deactivated = await this.redis.eval(
      FAILURE_SCRIPT,
      1,
      this.keys.webhook(id),
      String(nowMs),
      String(deactivateAfterMs),
    );
    return deactivated === 1;
  }

  async deactivate(id: string): Promise<void> {
    await this.redis.eval(DEACTIVATE_SCRIPT, 1, this.keys.webhook(id));
  }
}
