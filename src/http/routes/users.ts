import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../composition.js';
import { envelopeOf, ok } from '../envelope.js';
import { AddressSchema, KEY_OPTIONAL } from '../schemas/common.js';
import { UserProfileSchema } from '../schemas/users.js';

/** Profile statistics of a wallet, from the analytics aggregates, and its SNS primary domain. */
export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
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
    async (request) => ok(await deps.profiles.profile(request.params.address)),
  );
};
