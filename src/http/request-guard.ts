import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../core/errors.js';
import type { ApiKeyRecord } from '../redis/api-key-store.js';
import type { AuthenticatedHitResult, AuthenticatedHits } from '../redis/authenticated-hit.js';
import { type GuardedReply, ipCount, runGuarded } from '../redis/guarded-script.js';
import type { ScriptCall } from '../redis/lua-script.js';
import { bucketTtlMs, type FixedWindowRateLimiter, type RateLimitDecision } from '../redis/rate-limiter.js';
import {
  AUTH_FAILURE_LIMIT,
  ENDPOINT_POLICIES,
  type EndpointId,
  type EndpointPolicy,
} from './endpoint-policies.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route names its endpoint; its policy (auth, limits) comes from ENDPOINT_POLICIES. */
    endpoint?: EndpointId;
    /**
     * The handler runs the guard itself (`RequestGuard.runGuarded` or `check`), so that the guard
     * and the route's one script share a round trip; the onRequest hook leaves it alone.
     */
    guardedInRoute?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated key, or null on anonymous calls. */
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyInstance {
    requestGuard: RequestGuard;
  }
}

export interface RequestGuardOptions {
  /** Authentication and the key's rate-limit hit, in one round trip. */
  readonly authenticatedHits: AuthenticatedHits;
  readonly rateLimiter: FixedWindowRateLimiter;
  readonly analyticsRateLimit: number;
  /** Where `runGuarded` runs the guard and the route's script together. */
  readonly redis: Redis;
}

const UNAUTHORIZED_MESSAGES = {
  missing: 'API key required: send it in the X-API-Key header',
  malformed: 'invalid API key: expected sk_<environment>_<random>',
  unknown: 'invalid API key',
  revoked: 'API key has been revoked',
  expired: 'API key has expired',
} as const;

export function requireApiKey(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey) throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGES.missing);
  return request.apiKey;
}

function rateLimited(decision: RateLimitDecision): AppError<'RATE_LIMITED'> {
  return new AppError('RATE_LIMITED', `Rate limit exceeded. Try again in ${decision.resetSeconds} seconds.`, {
    details: { retryAfterSeconds: decision.resetSeconds },
  });
}

function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  reply.header('X-RateLimit-Limit', decision.limit);
  reply.header('X-RateLimit-Remaining', decision.remaining);
  reply.header('X-RateLimit-Reset', decision.resetSeconds);
  if (!decision.allowed) reply.header('Retry-After', decision.resetSeconds);
}

/**
 * Authentication, key-type checks and rate limits for every route, before the body is parsed:
 * a flood of bad requests is counted like any other.
 */
export class RequestGuard {
  constructor(private readonly options: RequestGuardOptions) {}

  /** The guard of a request: throws its refusal (401, 403, 429), sets the X-RateLimit-* headers. */
  async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { authenticatedHits, rateLimiter } = this.options;
    const endpoint = request.routeOptions.config.endpoint;
    if (!endpoint) return; // 404s and plugin routes (e.g. /docs assets)
    const policy: EndpointPolicy = ENDPOINT_POLICIES[endpoint];
    if (policy.auth === 'none') return;

    const rawKey = apiKeyHeader(request);
    if (!rawKey) {
      if (policy.auth === 'required') throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGES.missing);
      const tier = policy.anonymous;
      if (!tier) return;
      applyAnonymous(reply, await rateLimiter.hit({ endpoint, ...tier }, `ip:${request.ip}`));
      return;
    }

    // The key's checks and its bucket's count in one script: a refused key counts nothing, a
    // read-only key on a write endpoint is refused (403) before it is counted.
    const tier = policy.keyed;
    const result = await authenticatedHits.authenticateAndHit(
      rawKey,
      tier ? { endpoint, windowMs: tier.windowMs, refusedType: policy.write ? 'readonly' : undefined } : null,
      Date.now(),
    );
    await this.applyKeyed(request, reply, policy, result);
  }

  /**
   * The guard and `call` (null: nothing to run) in ONE round trip, for an optional-key read with
   * numeric limits: the script counts the request as `check` would and runs `call` only when the
   * request passes, then the verdict is applied exactly as `check` applies it (same errors, same
   * headers). Other policies take `check`, then `call`. Returns `call`'s reply.
   */
  async runGuarded(request: FastifyRequest, reply: FastifyReply, call: ScriptCall | null): Promise<unknown> {
    const { authenticatedHits, rateLimiter, redis } = this.options;
    const endpoint = request.routeOptions.config.endpoint;
    const policy: EndpointPolicy | null = endpoint ? ENDPOINT_POLICIES[endpoint] : null;
    const rawKey = apiKeyHeader(request);
    const anonymous = policy?.anonymous;
    const keyed = policy?.keyed;
    const hit =
      endpoint && rawKey && keyed && typeof keyed.limit === 'number'
        ? authenticatedHits.hitCall(rawKey, { endpoint, windowMs: keyed.windowMs }, Date.now())
        : null;
    if (!call || !endpoint || policy?.auth !== 'optional' || policy.write || (rawKey ? !hit : !anonymous)) {
      await this.check(request, reply);
      return call ? call.script.run(redis, call.keys, call.args) : null;
    }
    if (hit && keyed && typeof keyed.limit === 'number') {
      const guarded = await runGuarded(redis, { mode: 'key', ...hit }, keyed.limit, call);
      await this.applyKeyed(request, reply, policy, authenticatedHits.resultOf(guarded.guard, hit));
      return ranOrFail(guarded);
    }
    const tier = anonymous!;
    const { key, resetMs } = rateLimiter.bucket({ endpoint, ...tier }, `ip:${request.ip}`);
    const guarded = await runGuarded(
      redis,
      { mode: 'ip', bucketKey: key, ttlMs: bucketTtlMs(tier.windowMs) },
      tier.limit,
      call,
    );
    applyAnonymous(reply, rateLimiter.decideHit(tier, ipCount(guarded.guard), resetMs));
    return ranOrFail(guarded);
  }

  /** After the key's script: 401 (the failure counted per IP), 403 or the limit's decision. */
  private async applyKeyed(
    request: FastifyRequest,
    reply: FastifyReply,
    policy: EndpointPolicy,
    result: AuthenticatedHitResult,
  ): Promise<void> {
    const { authenticatedHits, rateLimiter, analyticsRateLimit } = this.options;
    if (!result.ok) {
      const decision = await rateLimiter.hit(AUTH_FAILURE_LIMIT, `ip:${request.ip}`);
      if (!decision.allowed) {
        setRateLimitHeaders(reply, decision);
        throw rateLimited(decision);
      }
      throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGES[result.reason]);
    }
    const key = result.record;
    request.apiKey = key;
    if (policy.write && key.type === 'readonly') {
      throw new AppError('UNAUTHORIZED', 'read-only key: this endpoint needs a developer or agent key', {
        httpStatus: 403,
      });
    }
    const tier = policy.keyed;
    if (!tier || result.count === null) return;
    const limit = tier.limit === 'analytics' ? (key.analyticsRateLimit ?? analyticsRateLimit) : tier.limit;
    const decision = authenticatedHits.decide(limit, result.count, result.resetMs);
    setRateLimitHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited(decision);
  }
}

function apiKeyHeader(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  return Array.isArray(header) ? header[0] : header;
}

function applyAnonymous(reply: FastifyReply, decision: RateLimitDecision): void {
  setRateLimitHeaders(reply, decision);
  if (!decision.allowed) throw rateLimited(decision);
}

/** The inner reply of a guarded call the guard let through (the script and the guard agree). */
function ranOrFail({ ran, inner, error }: GuardedReply): unknown {
  if (error) throw error;
  if (!ran) throw new Error('guarded script refused a request its guard accepted');
  return inner;
}

export const requestGuard = fp<RequestGuardOptions>(
  async (app: FastifyInstance, options) => {
    const guard = new RequestGuard(options);
    app.decorateRequest('apiKey', null);
    app.decorate('requestGuard', guard);
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config.guardedInRoute) return;
      await guard.check(request, reply);
    });
  },
  { name: 'request-guard' },
);
