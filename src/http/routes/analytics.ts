import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../composition.js';
import { envelopeOf, ok } from '../envelope.js';
import { CollectionsAnalyticsSchema, MarketAnalyticsSchema } from '../schemas/analytics.js';
import { KEY_OPTIONAL } from '../schemas/common.js';

/** Market and collection analytics: cheap reads of the aggregates the analytics consumer maintains. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/analytics/market',
    {
      config: { endpoint: 'GET /analytics/market' },
      schema: {
        tags: ['analytics'],
        summary: 'Market-wide activity: active auctions, 24 h volume, top domains',
        security: KEY_OPTIONAL,
        response: { 200: envelopeOf(MarketAnalyticsSchema) },
      },
    },
    async () => ok(await deps.analytics.market()),
  );

  app.get(
    '/analytics/collections',
    {
      config: { endpoint: 'GET /analytics/collections' },
      schema: {
        tags: ['analytics'],
        summary: 'Per-collection activity, floor price and 7-day volume trend',
        security: KEY_OPTIONAL,
        response: { 200: envelopeOf(CollectionsAnalyticsSchema) },
      },
    },
    async () => ok(await deps.analytics.collections()),
  );
};
