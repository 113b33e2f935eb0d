import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Deps } from '../composition.js';
import { AuthenticatedHits } from '../redis/authenticated-hit.js';
import { errorHandler } from './error-handler.js';
import { requestGuard } from './request-guard.js';
import { analyticsRoutes } from './routes/analytics.js';
import { auctionRoutes } from './routes/auctions/index.js';
import { healthRoutes } from './routes/health.js';
import { keyRoutes } from './routes/keys.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';

export const API_PREFIX = '/api/v1';

/** Builds the HTTP app over shared deps. Never listens: the process entry (or a test) does. */
export async function buildApp(deps: Deps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    trustProxy: deps.config.trustProxy,
    bodyLimit: 64 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  acceptEmptyJsonBodies(app);

  await app.register(errorHandler);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'sns-auction API',
        version: '1.0.0',
        description: 'Auctions of .sol domains. See SPEC.md.',
      },
      servers: [{ url: API_PREFIX }],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(requestGuard, {
    authenticatedHits: new AuthenticatedHits(deps.redis, deps.keys, deps.rateLimiter),
    rateLimiter: deps.rateLimiter,
    analyticsRateLimit: deps.config.analyticsRateLimit,
    redis: deps.redis,
  });

  await app.register(
    async (api) => {
      await api.register(swaggerUi, { routePrefix: '/docs' });
      api.get('/openapi.json', { config: { endpoint: 'GET /openapi.json' }, schema: { hide: true } }, () =>
        app.swagger(),
      );
      await api.register(healthRoutes, { deps });
      await api.register(keyRoutes, { deps });
      await api.register(auctionRoutes, { deps });
      await api.register(userRoutes, { deps });
      await api.register(analyticsRoutes, { deps });
      await api.register(webhookRoutes, { deps });
    },
    { prefix: API_PREFIX },
  );
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * Client wrappers often send `Content-Type: application/json` on every request, including bodiless
 * POST/DELETE calls (settle, revoke, delete): treat an empty body as no body instead of a 400.
 * Non-empty bodies still go through fastify's own parser (prototype-poisoning protection included).
 */
function acceptEmptyJsonBodies(
  app: Pick<FastifyInstance, 'getDefaultJsonParser' | 'removeContentTypeParser' | 'addContentTypeParser'>,
): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}
