/**
 * Authentication and the key's rate-limit hit in ONE Redis round trip: a script looks the key up
 * by its hash, checks the record's hash, revocation and expiry, and only then counts the request
 * in the key's clock-aligned bucket. Every request is checked against Redis, so a revocation or
 * an expiry holds on the next request, exactly as with `ApiKeyStore.authenticate`, and the counts
 * are those of `FixedWindowRateLimiter.hit` (same bucket keys, same expiry).
 *
 * What is cached in-process is only the decoded record, keyed by the key's hash and tagged with
 * the record's revision (`rev`, bumped by every write to the record): the script sends the
 * record's fields only when the stored revision is not the cached one, so a warm request's reply
 * is one short bulk string and nothing is rebuilt.
 *
 * The script touches keys it derives (the record, the bucket): fine on one Redis (what the
 * service runs on); a clustered Redis would need these keys under one hash tag.
 */
import type { Redis } from 'ioredis';
import { LruCache } from '../core/collections/lru-cache.js';
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
// 7 a key type refused without counting ('' = none), 8 the caller's cached revision ('' = none),
// 9 the key id the caller has cached for this hash ('' = none): the lookup by hash is then skipped
// (a hash's id never changes; the record's own hash is checked either way).
// Returns one string: 'unknown' | 'revoked' | 'expired', or 'ok <count|-> <rev|->' followed, when
// the stored revision is absent or not ARGV[8], by '\n' and the record's fields as a JSON object
// (cjson escapes newlines, so the reply has at most one).
// Exported for composition (guarded-script.ts runs it, as a function of its KEYS and ARGV, first).
export const AUTHENTICATED_HIT_LUA = `
local id = ARGV[9]
if not id or id == '' then
  id = redis.call('GET', KEYS[1])
  if not id then return 'unknown' end
end
local record = ARGV[3] .. id
local h = redis.call('HMGET', record, 'hash', 'revokedAt', 'expiresAt', 'type', 'rev')
-- The stored hash guards against an index (or a cached id) pointing at the wrong record.
if h[1] ~= ARGV[1] then return 'unknown' end
if h[2] and h[2] ~= '' then return 'revoked' end
if h[3] and h[3] ~= '' and tonumber(h[3]) <= tonumber(ARGV[2]) then return 'expired' end
local rev = h[5] or ''
local head
if ARGV[4] == '' or h[4] == ARGV[7] then
  head = 'ok -'
else
  local bucket = ARGV[4] .. id .. ARGV[5]
  local n = redis.call('INCR', bucket)
  if n == 1 then redis.call('PEXPIRE', bucket, ARGV[6]) end
  head = 'ok ' .. n
end
if rev ~= '' and rev == ARGV[8] then return head .. ' ' .. rev end
local fields = redis.call('HGETALL', record)
local f = {}
for i = 1, #fields, 2 do f[fields[i]] = fields[i + 1] end
return head .. ' ' .. (rev == '' and '-' or rev) .. '\\n' .. cjson.encode(f)`;
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

/** A record as decoded at one revision of the stored hash. */
interface CachedRecord {
  readonly rev: string;
  readonly record: ApiKeyRecord;
}

/** One run of the script, and what decoding its reply needs. */
export interface KeyedHitCall {
  readonly keys: string[];
  readonly args: (string | number)[];
  readonly resetMs: number;
  readonly hash: string;
  /** The cache entry whose revision the script was given: a reply without fields means it. */
  readonly cached: CachedRecord | undefined;
}

/** The subject of a key's buckets: `key:<id>`, as `FixedWindowRateLimiter.hit` callers name it. */
const KEY_SUBJECT_PREFIX = 'key:';
const FAILURES = new Set(['unknown', 'revoked', 'expired']);

export interface AuthenticatedHitsOptions {
  /** Records kept decoded (by key hash), the least recently used out first. */
  readonly cacheSize?: number;
}

export class AuthenticatedHits {
  /** Key hash (hex, never the raw key) → its record at a revision. */
  private readonly cache: LruCache<string, CachedRecord>;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly limiter: FixedWindowRateLimiter,
    options: AuthenticatedHitsOptions = {},
  ) {
    this.cache = new LruCache(Math.max(1, options.cacheSize ?? 10_000));
  }

  /** How many records are cached (bounded by the `cacheSize` option). */
  get cachedRecords(): number {
    return this.cache.size;
  }

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
    return this.resultOf(await AUTHENTICATED_HIT.run(this.redis, call.keys, call.args), call);
  }

  /** The script's keys and arguments for `authenticateAndHit`, or null for a malformed key. */
  hitCall(rawKey: string, rule: KeyedHitRule | null, nowMs: number): KeyedHitCall | null {
    if (!isWellFormedApiKey(rawKey)) return null;
    const hash = apiKeyHash(rawKey);
    const cached = this.cache.get(hash);
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
        cached?.rev ?? '',
        cached?.record.id ?? '',
      ],
      resetMs: window.resetMs,
      hash,
      cached,
    };
  }

  /** The result of the script's reply to `call` (see AUTHENTICATED_HIT_LUA for its format). */
  resultOf(reply: unknown, call: KeyedHitCall): AuthenticatedHitResult {
    const text = String(reply);
    if (FAILURES.has(text)) {
      this.cache.delete(call.hash);
      return { ok: false, reason: text as 'unknown' | 'revoked' | 'expired' };
    }
    const newline = text.indexOf('\n');
    const [status, count, rev] = (newline < 0 ? text : text.slice(0, newline)).split(' ');
    if (status !== 'ok' || count === undefined || rev === undefined)
      throw new Error(`unexpected authenticated-hit reply: ${text.slice(0, 40)}`);
    let record: ApiKeyRecord;
    if (newline >= 0) {
      record = apiKeyRecordFromFields(JSON.parse(text.slice(newline + 1)) as Record<string, string>);
      // A record without a revision ('-', written before revisions) cannot be told apart from a
      // later version of itself: never cached, its fields come every time.
      if (rev !== '-') this.cache.set(call.hash, { rev, record });
    } else if (call.cached?.rev === rev) {
      record = call.cached.record;
    } else {
      // The script leaves the fields out only when the revision it was given is the stored one.
      throw new Error('authenticated-hit reply without fields for an uncached revision');
    }
    return { ok: true, record, count: count === '-' ? null : Number(count), resetMs: call.resetMs };
  }

  /** The rate-limit decision of a counted request under `limit`. */
  decide(limit: number, count: number, resetMs: number): RateLimitDecision {
    return this.limiter.decideHit({ limit }, count, resetMs);
  }
}
