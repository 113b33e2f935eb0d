import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../composition.js';
import { auctionBidRoute } from './bid-route.js';
import { auctionCreateRoute } from './create-route.js';
import { auctionReadRoutes } from './read-routes.js';
import { auctionSettleCancelRoutes } from './settle-cancel-routes.js';

export const auctionRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(auctionReadRoutes, { deps });
  await app.register(auctionCreateRoute, { deps });
  await app.register(auctionBidRoute, { deps });
  await app.register(auctionSettleCancelRoutes, { deps });
};
