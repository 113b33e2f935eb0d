import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import bs58 from 'bs58';
import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import { execTransaction } from './transaction.js';

export const API_KEY_TYPES = ['agent', 'developer', 'readonly'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];
export type KeyEnvironment = 'test' | 'live';

export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  /** First 12 characters of the key, safe to show and log. */
  readonly prefix: string;
  readonly name: string;
  readonly type: ApiKeyType;
  readonly walletAddress: string;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  /** Per-key analytics limit (requests/min); null = the configured default. */
  readonly analyticsRateLimit: number | null;
}

export interface NewApiKey {
  readonly name: string;
  readonly type: ApiKeyType;
  readonly walletAddress: string;
  readonly expirationDays?: number | undefined;
  /** Joins an existing account; a bootstrap key starts a new one. */
  readonly accountId?: string | undefined;
}

export type AuthenticationResult =
  | { readonly ok: true; readonly record: ApiKeyRecord }
  | { readonly ok: false; readonly reason: 'malformed' | 'unknown' | 'revoked' | 'expired' };

const KEY_PATTERN = /^sk_(test|live)_[1-9A-HJ-NP-Za-km-z]{20,64}$/;
const DAY_MS = 86_400_000;

// One-shot hashing: no Hash object per request (the hot path hashes every request's key).
const sha256 = (value: string): Buffer => digest('sha256', value, 'buffer');

/** Whether `rawKey` has the shape of a key (checked before any Redis lookup). */
export const isWellFormedApiKey = (rawKey: string): boolean => KEY_PATTERN.test(rawKey);

/** What the store keeps of a key and looks it up by: SHA-256, hex. */
export const apiKeyHash = (rawKey: string): string => digest('sha256', rawKey, 'hex');

/**
 * API keys, stored only as SHA-256 hashes. The full key exists once, in the creation response.
 * Records are checked in Redis on every request, so a revocation holds on the next request.
 *
 * Every write to a record bumps its `rev` field in the same transaction: `AuthenticatedHits`
 * keeps decoded records by revision and is sent the fields again only when `rev` changed, so a
 * write that skipped the bump would go unseen (e.g. a new analytics limit).
 */
export class ApiKeyStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async create(
    input: NewApiKey,
    environment: KeyEnvironment,
    nowMs: number,
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `sk_${environment}_${bs58.encode(randomBytes(24))}`;
    const hash = apiKeyHash(key);
    const record: ApiKeyRecord = {
      id: `key_${bs58.encode(randomBytes(12))}`,
      accountId: input.accountId ?? `acct_${bs58.encode(randomBytes(12))}`,
      prefix: key.slice(0, 12),
      name: input.name,
      type: input.type,
      walletAddress: input.walletAddress,
      createdAt: nowMs,
      expiresAt: input.expirationDays ? nowMs + input.expirationDays * DAY_MS : null,
      revokedAt: null,
      analyticsRateLimit: null,
    };
    await this.redis
      .multi()
      .hset(this.keys.apiKey(record.id), { ...serialize(record), hash, rev: '1' })
      .set(this.keys.apiKeyIdByHash(hash), record.id)
      .sadd(this.keys.accountKeys(record.accountId), record.id)
      .exec();
    return { key, record };
  }

  async authenticate(rawKey: string, nowMs: number): Promise<AuthenticationResult> {
    if (!isWellFormedApiKey(rawKey)) return { ok: false, reason: 'malformed' };
    const hash = sha256(rawKey);
    const id = await this.redis.get(this.keys.apiKeyIdByHash(hash.toString('hex')));
    if (!id) return { ok: false, reason: 'unknown' };
    const fields = await this.redis.hgetall(this.keys.apiKey(id));
    // The lookup by hash already matched; comparing the stored hash in constant time guards
    // against a corrupted or hand-edited index pointing at the wrong record.
    const stored = Buffer.from(fields['hash'] ?? '', 'hex');
    if (stored.length !== hash.length || !timingSafeEqual(stored, hash))
      return { ok: false, reason: 'unknown' };
    const record = apiKeyRecordFromFields(fields);
    if (record.revokedAt !== null) return { ok: false, reason: 'revoked' };
    if (record.expiresAt !== null && record.expiresAt <= nowMs) return { ok: false, reason: 'expired' };
    return { ok: true, record };
  }

  async get(id: string): Promise<ApiKeyRecord | null> {
    const fields = await this.redis.hgetall(this.keys.apiKey(id));
    return fields['id'] ? apiKeyRecordFromFields(fields) : null;
  }

  async listAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const ids = await this.redis.smembers(this.keys.accountKeys(accountId));
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter((r): r is ApiKeyRecord => r !== null).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Revokes a key of `accountId`; false when the key is not that account's (callers answer 404). */
  async revoke(accountId: string, keyId: string, nowMs: number): Promise<ApiKeyRecord | null> {
    const record = await this.get(keyId);
    if (!record || record.accountId !== accountId) return null;
    if (record.revokedAt !== null) return record;
    await this.update(keyId, { revokedAt: String(nowMs) });
    return { ...record, revokedAt: nowMs };
  }

  async setAnalyticsRateLimit(keyId: string, perMinute: number | null): Promise<void> {
    await this.update(keyId, { analyticsRateLimit: perMinute === null ? '' : String(perMinute) });
  }

  /** The one way to write a stored record: the fields and the revision bump, atomically. */
  private async update(keyId: string, fields: Record<string, string>): Promise<void> {
    const key = this.keys.apiKey(keyId);
    // Fails on a hand-edited, non-numeric rev rather than leaving the write unseen.
    await execTransaction(this.redis.multi().hset(key, fields).hincrby(key, 'rev', 1));
  }
}

function serialize(r: ApiKeyRecord): Record<string, string> {
  return {
    id: r.id,
    accountId: r.accountId,
    prefix: r.prefix,
    name: r.name,
    type: r.type,
    walletAddress: r.walletAddress,
    createdAt: String(r.createdAt),
    expiresAt: r.expiresAt === null ? '' : String(r.expiresAt),
    revokedAt: r.revokedAt === null ? '' : String(r.revokedAt),
    analyticsRateLimit: r.analyticsRateLimit === null ? '' : String(r.analyticsRateLimit),
  };
}

const optionalNumber = (v: string | undefined) => (v ? Number(v) : null);

/** A key's record from its stored hash fields. */
export function apiKeyRecordFromFields(f: Record<string, string>): ApiKeyRecord {
  return {
    id: f['id'] ?? '',
    accountId: f['accountId'] ?? '',
    prefix: f['prefix'] ?? '',
    name: f['name'] ?? '',
    type: (f['type'] ?? 'readonly') as ApiKeyType,
    walletAddress: f['walletAddress'] ?? '',
    createdAt: Number(f['createdAt']),
    expiresAt: optionalNumber(f['expiresAt']),
    revokedAt: optionalNumber(f['revokedAt']),
    analyticsRateLimit: optionalNumber(f['analyticsRateLimit']),
  };
}
