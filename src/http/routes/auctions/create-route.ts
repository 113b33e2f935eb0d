import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createAuction } from '../../../auctions/create-auction.js';
import type { Deps } from '../../../composition.js';
import type { Address } from '../../../core/address.js';
import { envelopeOf, ok } from '../../envelope.js';
import { requireApiKey } from '../../request-guard.js';
import { CreateAuctionBody, CreatedAuctionSchema } from '../../schemas/auctions.js';
import { KEY_REQUIRED } from '../../schemas/common.js';

export const auctionCreateRoute: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/auctions/create',
    {
      config: { endpoint: 'POST /auctions/create' },
      schema: {
        tags: ['auctions'],
        summary:
          "List domains owned by the key's wallet: returns the unsigned create transaction to sign and send",
        security: KEY_REQUIRED,
        body: CreateAuctionBody,
        response: { 200: envelopeOf(CreatedAuctionSchema) },
      },
    },
    async (request) => {
      const seller = requireApiKey(request).walletAddress as Address;
      return ok(await createAuction(deps, { ...request.body, seller }));
    },
  );
};
