import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuction } from '../../../auctions/get-auction.js';
import { auctionListView, readAuctionList } from '../../../auctions/list-auctions.js';
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
import { envelopeJson, RenderedPages } from './rendered-pages.js';

/** Public reads: the list from the index, the detail live from the chain. */
export const auctionReadRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const listPages = new RenderedPages(AuctionListSchema, { method: 'GET', url: '/auctions' });

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
    async (request, reply) => {
      const { search, ...query } = request.query;
      const text = search?.trim();
      const read = await readAuctionList(deps, { ...query, search: text ? text : undefined });
      const data = listPages.get(read.viewKey, () => auctionListView(read));
      // Already JSON: fastify sends bytes with a JSON content type as they are.
      return reply.type('application/json; charset=utf-8').send(envelopeJson(data) as never);
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
