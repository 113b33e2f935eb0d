import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuction } from '../../../auctions/get-auction.js';
import { auctionListItems, readAuctionList } from '../../../auctions/list-auctions.js';
import type { Deps } from '../../../composition.js';
import type { Address } from '../../../core/address.js';
import type { ScriptRunner } from '../../../redis/lua-script.js';
import { envelopeOf, ok } from '../../envelope.js';
import type { RequestGuard } from '../../request-guard.js';
import {
  AuctionDetailSchema,
  AuctionIdParams,
  AuctionListSchema,
  ListAuctionsQuery,
} from '../../schemas/auctions.js';
import { KEY_OPTIONAL } from '../../schemas/common.js';
import { envelopeJson, RenderedPages } from './rendered-pages.js';

/**
 * The guard of GET /auctions and its index query in one Redis round trip, in the order of the
 * other routes: the guard's refusal (401, 429) comes before a 400 for the query string (attached,
 * not thrown, by validation) and before a failure to read chain time; a refused request runs no
 * query. When no query runs (nothing can match), the guard runs on its own.
 */
async function listAuctionsGuarded<T>(
  guard: RequestGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  read: (run: ScriptRunner) => Promise<T>,
): Promise<T> {
  if (request.validationError) {
    await guard.check(request, reply);
    throw request.validationError;
  }
  let guarded = false;
  const run: ScriptRunner = (call) => {
    guarded = true;
    return guard.runGuarded(request, reply, call);
  };
  try {
    const result = await read(run);
    if (!guarded) await guard.check(request, reply);
    return result;
  } catch (error) {
    if (!guarded) await guard.check(request, reply);
    throw error;
  }
}

/** Public reads: the list from the index, the detail live from the chain. */
export const auctionReadRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const listPages = new RenderedPages();

  app.get(
    '/auctions',
    {
      // The guard runs in the handler, in the query's round trip (see listAuctionsGuarded).
      config: { endpoint: 'GET /auctions', guardedInRoute: true },
      attachValidation: true,
      schema: {
        tags: ['auctions'],
        summary: 'List auctions: filter by status, type, seller or text; sort and paginate',
        security: KEY_OPTIONAL,
        querystring: ListAuctionsQuery,
        response: { 200: envelopeOf(AuctionListSchema) },
      },
    },
    async (request, reply) => {
      const read = await listAuctionsGuarded(app.requestGuard, request, reply, (run) => {
        const { search, ...query } = request.query;
        const text = search?.trim();
        return readAuctionList(deps, { ...query, search: text ? text : undefined }, run);
      });
      const data =
        listPages.get(read.contentKey, read.now) ??
        listPages.put(read.contentKey, read.now, {
          items: await auctionListItems(deps, read),
          total: read.entries.total,
          page: read.query.page,
          pageSize: read.query.pageSize,
        });
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
