import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../composition.js';
import { envelopeOf, ok } from '../envelope.js';
import { AddressSchema, KEY_OPTIONAL } from '../schemas/common.js';
import { type UserProfile, UserProfileSchema } from '../schemas/users.js';

/** Profile statistics of a wallet. Zeros until the analytics milestone indexes auctions. */
export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app) => {
  app.get(
    '/users/:address',
    {
      config: { endpoint: 'GET /users/:address' },
      schema: {
        tags: ['users'],
        summary: "A wallet's auction statistics and recent activity",
        security: KEY_OPTIONAL,
        params: z.object({ address: AddressSchema }),
        response: { 200: envelopeOf(UserProfileSchema) },
      },
    },
    async (request) => {
      const profile: UserProfile = {
        address: request.params.address,
        registryName: null,
        stats: {
          totalAuctionsCreated: 0,
          totalAuctionsWon: 0,
          totalBidsPlaced: 0,
          totalVolumeTraded: 0,
          averageBidSize: 0,
          winRate: 0,
        },
        recentActivity: [],
      };
      return ok(profile);
    },
  );
};
