import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuction } from '../../../auctions/get-auction.js';
import { listAuctions } from '../../../auctions/list-auctions.js';
import type { Deps } from '../../../composition.js';
import type { Address } from '../../../core/address.js';
import { envelopeOf, ok } from '../../envelope.js';
import {
  AuctionDetailSchema,
  AuctionIdParams,
  AuctionListSchema,
  ListAuctionsQuery,
} from '../../schemas/auctions.js';
import { KEY_OPTIONAL } from '../../schemas/common.js';

/** Public reads: the list from the index, the detail live from the chain. */
export const auctionReadRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/auctions',
    {
      config: { endpoint: 'GET /auctions' },
      schema: {
        tags: ['auctions'],
        summary: 'List auctions: filter by status, type, seller or text; sort and paginate',
        security: KEY_OPTIONAL,
        querystring: ListAuctionsQuery,
        response: { 200: envelopeOf(AuctionListSchema) },
      },
    },
    async (request) => {
      const { search, ...query } = request.query;
      const text = search?.trim();
      return ok(await listAuctions(deps, { ...query, search: text ? text : undefined }));
    },
  );

  app.get(
    '/auctions/:id',
    {
      config: { endpoint: 'GET /auctions/:id' },
      schema: {
        tags: ['auctions'],
        summary:
          "One auction, read live from the chain, with its bids (the reserve only for the seller's keys)",
        security: KEY_OPTIONAL,
        params: AuctionIdParams,
        response: { 200: envelopeOf(AuctionDetailSchema) },
      },
    },
    async (request) =>
      ok(await getAuction(deps, request.params.id as Address, request.apiKey?.walletAddress ?? null)),
  );
};
