import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../core/errors.js';
import type { ApiKeyRecord } from '../redis/api-key-store.js';
import type { AuthenticatedHits } from '../redis/authenticated-hit.js';
import type { FixedWindowRateLimiter, RateLimitDecision } from '../redis/rate-limiter.js';
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
  }
  interface FastifyRequest {
    /** The authenticated key, or null on anonymous calls. */
    apiKey: ApiKeyRecord | null;
  }
}

export interface RequestGuardOptions {
  /** Authentication and the key's rate-limit hit, in one round trip. */
  readonly authenticatedHits: AuthenticatedHits;
  readonly rateLimiter: FixedWindowRateLimiter;
  readonly analyticsRateLimit: number;
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
export const requestGuard = fp<RequestGuardOptions>(
  async (app: FastifyInstance, { authenticatedHits, rateLimiter, analyticsRateLimit }) => {
    app.decorateRequest('apiKey', null);

    app.addHook('onRequest', async (request, reply) => {
      const endpoint = request.routeOptions.config.endpoint;
      if (!endpoint) return; // 404s and plugin routes (e.g. /docs assets)
      const policy: EndpointPolicy = ENDPOINT_POLICIES[endpoint];
      if (policy.auth === 'none') return;

      const header = request.headers['x-api-key'];
      const rawKey = Array.isArray(header) ? header[0] : header;
      if (!rawKey) {
        if (policy.auth === 'required') throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGES.missing);
        const tier = policy.anonymous;
        if (!tier) return;
        const decision = await rateLimiter.hit({ endpoint, ...tier }, `ip:${request.ip}`);
        setRateLimitHeaders(reply, decision);
        if (!decision.allowed) throw rateLimited(decision);
        return;
      }

      // The key's checks and its bucket's count in one script: a refused key counts nothing, a
      // read-only key on a write endpoint is refused (403) before it is counted.
      const tier = policy.keyed;
      const result = await authenticatedHits.authenticateAndHit(
        rawKey,
        tier
          ? { endpoint, windowMs: tier.windowMs, refusedType: policy.write ? 'readonly' : undefined }
          : null,
        Date.now(),
      );
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
      if (!tier || result.count === null) return;
      const limit = tier.limit === 'analytics' ? (key.analyticsRateLimit ?? analyticsRateLimit) : tier.limit;
      const decision = authenticatedHits.decide(limit, result.count, result.resetMs);
      setRateLimitHeaders(reply, decision);
      if (!decision.allowed) throw rateLimited(decision);
    });
  },
  { name: 'request-guard' },
);
