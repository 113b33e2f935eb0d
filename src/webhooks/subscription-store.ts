import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import type { Redis } from 'ioredis';
import { AppError } from '../core/errors.js';
import type { RedisKeys } from '../redis/keys.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.js';

export const MAX_SUBSCRIPTIONS_PER_KEY = 25;

export interface WebhookSubscription {
  /** `whk_<random>` */
  readonly id: string;
  /** The API key that created it; only that key sees it. */
  readonly ownerKeyId: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly active: boolean;
  readonly createdAt: number;
  /** Unix ms of the last successful delivery; null until one succeeds. */
  readonly lastDelivery: number | null;
}

/** What the delivery worker needs: the subscription and its signing secret. */
export interface WebhookTarget extends WebhookSubscription {
  readonly secret: string;
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt` (Unix ms). */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: number | null;
}

/** The secrets a delivery at `nowMs` is signed with: the current one, and the previous one during a rotation. */
export function signingSecrets(target: WebhookTarget, nowMs: number): string[] {
  const overlap = target.previousSecret !== null && (target.previousSecretExpiresAt ?? 0) > nowMs;
  return overlap ? [target.secret, target.previousSecret as string] : [target.secret];
}

export interface SubscriptionChanges {
  readonly url?: string | undefined;
  readonly events?: readonly WebhookEventType[] | undefined;
  readonly active?: boolean | undefined;
}

// KEYS: owner index, subscription hash, by-event sets. ARGV: max, createdAt, id, field/value pairs.
const CREATE_SCRIPT = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
for i = 3, #KEYS do redis.call('SADD', KEYS[i], ARGV[3]) end
return 1`;

// KEYS: subscription hash, by-event sets of the new events. ARGV: owner, id, field/value pairs.
const UPDATE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'ownerKeyId') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
for i = 2, #KEYS do redis.call('SADD', KEYS[i], ARGV[2]) end
return 1`;

// KEYS: subscription hash, owner index, every by-event set. ARGV: owner, id.
const DELETE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'ownerKeyId') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
for i = 3, #KEYS do redis.call('SREM', KEYS[i], ARGV[2]) end
return 1`;

/**
 * Webhook subscriptions, owned by the API key that created them: other keys get null (the routes
 * answer 404, never revealing that the id exists). Every write is one Lua script, so the owner
 * check and the change happen together.
 *
 * The per-event index is a superset: an update only adds event memberships (removing them could
 * race with a concurrent update and lose one), so the fan-out re-checks each subscription's own
 * event list. Deletion removes the id from every event set.
 */
export class WebhookSubscriptionStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Returns the subscription and its secret (shown once). Over the per-key limit: 400. */
  async create(
    ownerKeyId: string,
    input: { readonly url: string; readonly events: readonly WebhookEventType[] },
    nowMs: number,
  ): Promise<{ subscription: WebhookSubscription; secret: string }> {
    const subscription: WebhookSubscription = {
      id: `whk_${bs58.encode(randomBytes(16))}`,
      ownerKeyId,
      url: input.url,
      events: [...input.events],
      active: true,
      createdAt: nowMs,
      lastDelivery: null,
    };
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const created = await this.redis.eval(
      CREATE_SCRIPT,
      2 + subscription.events.length,
      this.keys.webhooksOfKey(ownerKeyId),
      this.keys.webhook(subscription.id),
      ...subscription.events.map((e) => this.keys.webhooksByEvent(e)),
      String(MAX_SUBSCRIPTIONS_PER_KEY),
      String(nowMs),
      subscription.id,
      ...pairs({ ...serialize(subscription), secret }),
    );
    if (created !== 1) {
      throw new AppError(
        'INVALID_REQUEST',
        `webhook limit reached: an API key can have at most ${MAX_SUBSCRIPTIONS_PER_KEY} subscriptions; delete one first`,
        { details: { reason: 'subscription_limit', limit: MAX_SUBSCRIPTIONS_PER_KEY } },
      );
    }
    return { subscription, secret };
  }

  /** The key's subscriptions, oldest first. */
  async list(ownerKeyId: string): Promise<WebhookSubscription[]> {
    const ids = await this.redis.zrange(this.keys.webhooksOfKey(ownerKeyId), 0, '-1');
    const targets = await this.read(ids);
    return targets.filter((t) => t.ownerKeyId === ownerKeyId).map(withoutSecret);
  }

  async get(ownerKeyId: string, id: string): Promise<WebhookSubscription | null> {
    const [target] = await this.read([id]);
    return target && target.ownerKeyId === ownerKeyId ? withoutSecret(target) : null;
  }

  /** Applies the changes and returns the updated subscription; null when the key does not own it. */
  async update(
    ownerKeyId: string,
    id: string,
    changes: SubscriptionChanges,
  ): Promise<WebhookSubscription | null> {
    const fields: Record<string, string> = {};
    if (changes.url !== undefined) fields['url'] = changes.url;
    if (changes.events !== undefined) fields['events'] = JSON.stringify(changes.events);
    if (changes.active !== undefined) fields['active'] = changes.active ? '1' : '0';
    // Re-enabling starts a new failure streak (see delivery-state.ts).
    if (changes.active === true) fields['failingSince'] = '';
    if (Object.keys(fields).length === 0) return this.get(ownerKeyId, id);
    const newEvents = changes.events ?? [];
    const updated = await this.redis.eval(
      UPDATE_SCRIPT,
      1 + newEvents.length,
      this.keys.webhook(id),
      ...newEvents.map((e) => this.keys.webhooksByEvent(e)),
      ownerKeyId,
      id,
      ...pairs(fields),
    );
    return updated === 1 ? this.get(ownerKeyId, id) : null;
  }

  /** False when the key does not own a subscription with this id. */
  async delete(ownerKeyId: string, id: string): Promise<boolean> {
    const deleted = await this.redis.eval(
      DELETE_SCRIPT,
      2 + WEBHOOK_EVENT_TYPES.length,
      this.keys.webhook(id),
      this.keys.webhooksOfKey(ownerKeyId),
      ...WEBHOOK_EVENT_TYPES.map((e) => this.keys.webhooksByEvent(e)),
      ownerKeyId,
      id,
    );
    return deleted === 1;
  }

  /** Active subscriptions to `event`, with their secrets: the delivery fan-out. */
  async subscribersOf(event: WebhookEventType): Promise<WebhookTarget[]> {
    const ids = await this.redis.smembers(this.keys.webhooksByEvent(event));
    const targets = await this.read(ids);
    return targets.filter((t) => t.active && t.events.includes(event));
  }

  /** Any subscription by id, with its secrets, whoever owns it: the delivery worker's view. */
  async target(id: string): Promise<WebhookTarget | null> {
    const [target] = await this.read([id]);
    return target ?? null;
  }

  private async read(ids: readonly string[]): Promise<WebhookTarget[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.webhook(id));
    const results = (await pipeline.exec()) ?? [];
    return results.flatMap(([error, fields]) => {
      if (error) throw error;
      const f = fields as Record<string, string>;
      return f['id'] ? [deserialize(f)] : [];
    });
  }
}

function serialize(s: WebhookSubscription): Record<string, string> {
  return {
    id: s.id,
    ownerKeyId: s.ownerKeyId,
    url: s.url,
    events: JSON.stringify(s.events),
    active: s.active ? '1' : '0',
    createdAt: String(s.createdAt),
    lastDelivery: s.lastDelivery === null ? '' : String(s.lastDelivery),
  };
}

function deserialize(f: Record<string, string>): WebhookTarget {
  return {
    id: f['id'] ?? '',
    ownerKeyId: f['ownerKeyId'] ?? '',
    url: f['url'] ?? '',
    events: JSON.parse(f['events'] ?? '[]') as WebhookEventType[],
    active: f['active'] === '1',
    createdAt: Number(f['createdAt']),
    lastDelivery: f['lastDelivery'] ? Number(f['lastDelivery']) : null,
    secret: f['secret'] ?? '',
    previousSecret: f['previousSecret'] || null,
    previousSecretExpiresAt: f['previousSecretExpiresAt'] ? Number(f['previousSecretExpiresAt']) : null,
  };
}

function withoutSecret({
  secret: _secret,
  previousSecret: _previous,
  previousSecretExpiresAt: _expires,
  ...subscription
}: WebhookTarget): WebhookSubscription {
  return subscription;
}

const pairs = (fields: Record<string, string>) => Object.entries(fields).flat();
