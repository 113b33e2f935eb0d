import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invalidField } from '../../../auctions/field-errors.js';
import { placeBid } from '../../../auctions/place-bid.js';
import type { Deps } from '../../../composition.js';
import type { Address } from '../../../core/address.js';
import { envelopeOf, ok } from '../../envelope.js';
import { requireApiKey } from '../../request-guard.js';
import { AuctionIdParams, PlaceBidBody, PreparedBidSchema } from '../../schemas/auctions.js';
import { KEY_REQUIRED } from '../../schemas/common.js';

export const auctionBidRoute: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/auctions/:id/bid',
    {
      config: { endpoint: 'POST /auctions/:id/bid' },
      schema: {
        tags: ['auctions'],
        summary: "Bid with the key's wallet: returns the unsigned place_bid transaction to sign and send",
        security: KEY_REQUIRED,
        params: AuctionIdParams,
        body: PlaceBidBody,
        response: { 200: envelopeOf(PreparedBidSchema) },
      },
    },
    async (request) => {
      const bidder = requireApiKey(request).walletAddress as Address;
      const { id } = request.params;
      const { bidAmount, auctionId, txVersion } = request.body;
      if (auctionId !== undefined && auctionId !== id) {
        throw invalidField('auctionId', `must match the auction in the path (${id})`);
      }
      return ok(await placeBid(deps, { auctionId: id as Address, bidder, bidAmount, txVersion }));
    },
  );
};
