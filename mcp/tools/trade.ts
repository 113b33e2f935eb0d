/**
 * Write tools: create, bid and cancel return a prepared (unsigned, simulated) transaction; settle
 * is done by the service's keeper and returns the settlement.
 */
import { z } from 'zod';
import { solToLamports } from '../../src/core/money.js';
import { AUCTION_TYPES, MAX_DOMAINS_PER_AUCTION } from '../../src/core/program/auction-account.js';
import { isoOf } from '../present.js';
import { iso, PreparedShape, sol } from '../schemas.js';
import { prepareResult } from '../signing/prepare.js';
import { guarded, okResult } from '../tool-result.js';
import { auctionIdArg } from './auctions.js';
import type { ToolRegistrar } from './registrar.js';

const PREPARE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;
const solArg = (what: string) => z.number().positive().max(1_000_000).describe(`SOL, ${what}`);
const txVersion = z
  .enum(['legacy', 'v0'])
  .default('legacy')
  .describe('transaction format for a caller that signs itself; legacy unless the wallet needs v0');
const version = (v: 'legacy' | 'v0') => (v === 'v0' ? 0 : 'legacy');

export const registerTradeTools: ToolRegistrar = (server, ctx) => {
  const { client } = ctx;
  const submitHint = ctx.signer ? ' Nothing happens on chain until tx_submit.' : '';

  server.registerTool(
    'auction_create',
    {
      title: 'Create auction (prepare)',
      description:
        "Prepares the transaction that lists 1 to 5 .sol domains owned by this server's wallet. Types: standard (highest bid wins), reserve (hidden minimum reservePrice), buy_now (buyNowPrice ends it at once), dutch (price falls from startingPrice to dutchEndPrice; first bid buys). " +
        `Returns preparedId, the decoded and simulated transaction and the new auctionId.${submitHint}`,
      inputSchema: {
        domainNames: z
          .array(z.string().min(7).max(67))
          .min(1)
          .max(MAX_DOMAINS_PER_AUCTION)
          .describe('e.g. ["abc.sol"]'),
        type: z.enum(AUCTION_TYPES),
        startingPrice: solArg('the least the first bid may be (dutch: the price at start)'),
        minBidIncrement: z.number().min(0).max(1_000_000).describe('SOL, the least raise between bids'),
        durationHours: z.number().min(0.25).max(720).describe('0.25 (15 minutes) to 720 (30 days)'),
        reservePrice: solArg('hidden minimum; reserve type only').optional(),
        buyNowPrice: solArg('buy_now type only').optional(),
        dutchEndPrice: solArg('dutch type only: the floor, below startingPrice').optional(),
        snipeProtectionEnabled: z
          .boolean()
          .optional()
          .describe('extend the end when a bid lands in the last minute'),
        title: z.string().min(1).max(120).optional(),
        category: z.string().min(1).max(32).optional(),
        tags: z.array(z.string().min(1).max(32)).max(10).optional(),
        txVersion,
      },
      outputSchema: { ...PreparedShape, estimatedStartTime: iso, endTime: iso },
      annotations: { ...PREPARE, title: 'Create auction (prepare)' },
    },
    ({ txVersion: v, ...body }, extra) =>
      guarded('auction_create', async () => {
        const created = await client.createAuction(
          { ...body, txVersion: version(v) },
          { signal: extra.signal },
        );
        return prepareResult(
          ctx,
          'auction_create',
          created.auctionId,
          0n,
          `list ${body.domainNames.join(', ')} as a ${body.type} auction from ${body.startingPrice} SOL for ${body.durationHours} h`,
          created,
          { estimatedStartTime: isoOf(created.estimatedStartTime), endTime: isoOf(created.rules.endTime) },
        );
      }),
  );

  server.registerTool(
    'bid_place',
    {
      title: 'Place bid (prepare)',
      description:
        "Prepares a bid of amountSol on an auction. The bid must be at least the auction's nextMinimumBid (auction_get); for dutch it is the most you pay (you pay the current price), for buy_now a bid at buyNowPrice buys at once. The SOL is escrowed and refunded if you are outbid. " +
        `Returns preparedId and the decoded, simulated transaction.${submitHint}`,
      inputSchema: {
        auctionId: auctionIdArg,
        amountSol: solArg('at least nextMinimumBid from auction_get'),
        txVersion,
      },
      outputSchema: { ...PreparedShape, bidAmount: sol, nextMinimumBidAfter: sol, endTime: iso },
      annotations: { ...PREPARE, title: 'Place bid (prepare)' },
    },
    ({ auctionId, amountSol, txVersion: v }, extra) =>
      guarded('bid_place', async () => {
        const declared = solToLamports(amountSol);
        const bid = await client.placeBid(auctionId, amountSol, version(v), { signal: extra.signal });
        return prepareResult(
          ctx,
          'bid_place',
          auctionId,
          declared,
          `bid ${bid.bidAmount} SOL on ${auctionId}`,
          bid,
          {
            bidAmount: bid.bidAmount,
            nextMinimumBidAfter: bid.nextMinimumBid,
            endTime: isoOf(bid.rules.endTime),
          },
        );
      }),
  );

  server.registerTool(
    'auction_cancel',
    {
      title: 'Cancel auction (prepare)',
      description:
        "Prepares the cancel transaction of one of this wallet's auctions that has no bids yet; the domains return to the seller. " +
        `Returns preparedId and the decoded, simulated transaction.${submitHint}`,
      inputSchema: { auctionId: auctionIdArg, txVersion },
      outputSchema: PreparedShape,
      annotations: { ...PREPARE, title: 'Cancel auction (prepare)' },
    },
    ({ auctionId, txVersion: v }, extra) =>
      guarded('auction_cancel', async () => {
        const cancel = await client.cancelAuction(auctionId, version(v), { signal: extra.signal });
        return prepareResult(ctx, 'auction_cancel', auctionId, 0n, `cancel auction ${auctionId}`, cancel);
      }),
  );

  server.registerTool(
    'auction_settle',
    {
      title: 'Settle auction',
      description:
        "Settles an auction whose end time has passed: the service's keeper signs; the winner gets the domains and the seller the SOL (or everything returns when there were no bids or the reserve was not met). " +
        'Safe to repeat: settling a settled auction returns the existing settlement (alreadySettled true). Dutch and buy_now auctions settle inside the winning bid.',
      inputSchema: { auctionId: auctionIdArg },
      outputSchema: {
        auctionId: z.string(),
        winner: z.string().nullable(),
        finalPrice: sol.nullable(),
        reserveMet: z.boolean().nullable(),
        transactionId: z.string(),
        settledAt: iso,
        alreadySettled: z.boolean(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
        title: 'Settle auction',
      },
    },
    ({ auctionId }, extra) =>
      guarded('auction_settle', async () => {
        const s = await client.settleAuction(auctionId, { signal: extra.signal });
        const outcome = s.winner
          ? `sold to ${s.winner} for ${s.finalPrice} SOL`
          : 'not sold; domains returned';
        return okResult(
          {
            auctionId: s.auctionId,
            winner: s.winner,
            finalPrice: s.finalPrice,
            reserveMet: s.reserveMet,
            transactionId: s.transactionId,
            settledAt: isoOf(s.settledAt),
            alreadySettled: s.alreadySettled,
          },
          `Settled: ${outcome}${s.alreadySettled ? ' (it was settled before)' : ''}.`,
        );
      }),
  );
};
