import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cancelAuction } from '../../../auctions/cancel-auction.js';
import { settleAuction } from '../../../auctions/settle-auction.js';
import type { Deps } from '../../../composition.js';
import type { Address } from '../../../core/address.js';
import { envelopeOf, ok } from '../../envelope.js';
import { requireApiKey } from '../../request-guard.js';
import {
  AuctionIdParams,
  CancelAuctionBody,
  PreparedCancelSchema,
  SettlementSchema,
} from '../../schemas/auctions.js';
import { KEY_REQUIRED } from '../../schemas/common.js';

export const auctionSettleCancelRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/auctions/:id/settle',
    {
      config: { endpoint: 'POST /auctions/:id/settle' },
      schema: {
        tags: ['auctions'],
        summary: 'Settle an ended auction: the service signs and sends it (idempotent)',
        security: KEY_REQUIRED,
        params: AuctionIdParams,
        response: { 200: envelopeOf(SettlementSchema) },
      },
    },
    async (request) => {
      requireApiKey(request);
      return ok(await settleAuction(deps, request.params.id as Address));
    },
  );

  app.post(
    '/auctions/:id/cancel',
    {
      config: { endpoint: 'POST /auctions/:id/cancel' },
      schema: {
        tags: ['auctions'],
        summary:
          "Withdraw an auction without bids (seller's keys only): returns the unsigned cancel transaction",
        security: KEY_REQUIRED,
        params: AuctionIdParams,
        body: CancelAuctionBody,
        response: { 200: envelopeOf(PreparedCancelSchema) },
      },
    },
    async (request) => {
      const caller = requireApiKey(request).walletAddress as Address;
      const auctionId = request.params.id as Address;
      return ok(await cancelAuction(deps, { auctionId, caller, txVersion: request.body?.txVersion }));
    },
  );
};
