/**
 * Authentication and the key's rate-limit hit in ONE Redis round trip: a script looks the key up
 * by its hash, reads its record, checks revocation and expiry, and only then counts the request
 * in the key's clock-aligned bucket. Every request reads the record afresh (no cache), so a
 * revocation holds on the next request, exactly as with `ApiKeyStore.authenticate`, and the
 * counts are those of `FixedWindowRateLimiter.hit` (same bucket keys, same expiry).
 *
 * The script touches keys it derives (the record, the bucket): fine on one Redis (what the
 * service runs on); a clustered Redis would need these keys under one hash tag.
 */
import type { Redis } from 'ioredis';
import {
  type ApiKeyRecord,
  type AuthenticationResult,
  apiKeyHash,
  apiKeyRecordFromFields,
  isWellFormedApiKey,
} from './api-key-store.js';
import type { RedisKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { bucketTtlMs, type FixedWindowRateLimiter, type RateLimitDecision } from './rate-limiter.js';

// KEYS[1] the key id by hash. ARGV: 1 hash (hex), 2 now (ms), 3 the record's key without the id,
// 4/5 the bucket key before/after the key id ('' = count nothing), 6 the bucket's expiry (ms),
// 7 a key type refused without counting ('' = none).
// Returns {reason} on failure, else {'ok', fields} or {'ok', fields, count}.
// Exported for composition (guarded-script.ts runs it, as a function of its KEYS and ARGV, first).
export const AUTHENTICATED_HIT_LUA = `
local id = redis.call('GET', KEYS[1])
if not id then return {'unknown'} end
local fields = redis.call('HGETALL', ARGV[3] .. id)
local f = {}
for i = 1, #fields, 2 do f[fields[i]] = fields[i + 1] end
-- The lookup by hash matched; the stored hash guards against an index pointing at the wrong record.
if f['hash'] ~= ARGV[1] then return {'unknown'} end
if f['revokedAt'] and f['revokedAt'] ~= '' then return {'revoked'} end
if f['expiresAt'] and f['expiresAt'] ~= '' and tonumber(f['expiresAt']) <= tonumber(ARGV[2]) then
  return {'expired'}
end
if ARGV[4] == '' or f['type'] == ARGV[7] then return {'ok', fields} end
local bucket = ARGV[4] .. id .. ARGV[5]
local n = redis.call('INCR', bucket)
if n == 1 then redis.call('PEXPIRE', bucket, ARGV[6]) end
return {'ok', fields, n}`;
const AUTHENTICATED_HIT = new LuaScript(AUTHENTICATED_HIT_LUA);

/** Which bucket to count the request in once the key is known (per key, per endpoint). */
export interface KeyedHitRule {
  readonly endpoint: string;
  readonly windowMs: number;
  /** Keys of this type are not counted (the caller refuses them: 403 on write endpoints). */
  readonly refusedType?: ApiKeyRecord['type'] | undefined;
}

export type AuthenticatedHitResult =
  | Extract<AuthenticationResult, { ok: false }>
  | {
      readonly ok: true;
      readonly record: ApiKeyRecord;
      /** The bucket's count after this request; null when nothing was counted. */
      readonly count: number | null;
      /** Time left in the bucket's window (ms), for the decision and its headers. */
      readonly resetMs: number;
    };

/** The subject of a key's buckets: `key:<id>`, as `FixedWindowRateLimiter.hit` callers name it. */
const KEY_SUBJECT_PREFIX = 'key:';

export class AuthenticatedHits {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly limiter: FixedWindowRateLimiter,
  ) {}

  /**
   * Authenticates `rawKey` at `nowMs` (expiry) and, when `rule` is given and the key passes (and
   * is not of the refused type), counts the request in the key's bucket for `rule.endpoint`.
   */
  async authenticateAndHit(
    rawKey: string,
    rule: KeyedHitRule | null,
    nowMs: number,
  ): Promise<AuthenticatedHitResult> {
    const call = this.hitCall(rawKey, rule, nowMs);
    if (!call) return { ok: false, reason: 'malformed' };
    return this.resultOf(await AUTHENTICATED_HIT.run(this.redis, call.keys, call.args), call.resetMs);
  }

  /** The script's keys and arguments for `authenticateAndHit`, or null for a malformed key. */
  hitCall(
    rawKey: string,
    rule: KeyedHitRule | null,
    nowMs: number,
  ): { keys: string[]; args: (string | number)[]; resetMs: number } | null {
    if (!isWellFormedApiKey(rawKey)) return null;
    const hash = apiKeyHash(rawKey);
    const window = rule ? this.limiter.window(rule.windowMs) : { bucket: 0, resetMs: 0 };
    const around = rule ? this.keys.rateLimitBucketAround(rule.endpoint, window.bucket) : null;
    return {
      keys: [this.keys.apiKeyIdByHash(hash)],
      args: [
        hash,
        nowMs,
        this.keys.apiKey(''),
        around ? `${around.before}${KEY_SUBJECT_PREFIX}` : '',
        around?.after ?? '',
        rule ? bucketTtlMs(rule.windowMs) : 0,
        rule?.refusedType ?? '',
      ],
      resetMs: window.resetMs,
    };
  }

  /** The result of the script's reply ({reason} or {'ok', fields, count?}). */
  resultOf(reply: unknown, resetMs: number): AuthenticatedHitResult {
    const [status, fields, count] = reply as [string, string[]?, number?];
    if (status !== 'ok') return { ok: false, reason: status as 'unknown' | 'revoked' | 'expired' };
    const flat = fields ?? [];
    const record: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) record[flat[i]!] = flat[i + 1]!;
    return {
      ok: true,
      record: apiKeyRecordFromFields(record),
      count: count === undefined ? null : Number(count),
      resetMs,
    };
  }

  /** The rate-limit decision of a counted request under `limit`. */
  decide(limit: number, count: number, resetMs: number): RateLimitDecision {
    return this.limiter.decideHit({ limit }, count, resetMs);
  }
}
