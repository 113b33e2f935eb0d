import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../composition.js';
import { envelopeOf, ok } from '../envelope.js';
import {
  type CollectionsAnalytics,
  CollectionsAnalyticsSchema,
  type MarketAnalytics,
  MarketAnalyticsSchema,
} from '../schemas/analytics.js';
import { KEY_OPTIONAL } from '../schemas/common.js';

/** Market and collection analytics. Zeros and empty lists until the analytics milestone fills them. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app) => {
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
    async () => {
      const market: MarketAnalytics = {
        activeAuctions: 0,
        completed24h: 0,
        totalVolume24h: 0,
        averagePrice24h: 0,
        totalEverVolume: 0,
        uniqueBuyers: 0,
        uniqueSellers: 0,
        topDomains: [],
        auctionTypeDistribution: { standard: 0, dutch: 0, reserve: 0, buy_now: 0 },
      };
      return ok(market);
    },
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
    async () => {
      const collections: CollectionsAnalytics = { collections: [], generatedAt: Date.now() };
      return ok(collections);
    },
  );
};
