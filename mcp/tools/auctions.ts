/** Read tools over auctions: list/search and detail. */
import { z } from 'zod';
import { AUCTION_STATUSES } from '../../src/core/auction-rules/status.js';
import { AUCTION_TYPES } from '../../src/core/program/auction-account.js';
import { AUCTION_SORT_KEYS } from '../../src/indexer/auction-index-query.js';
import { auctionDetail, auctionSummary } from '../present.js';
import { AuctionSummarySchema, AuctionSummaryShape, BidShape, count, iso, sol } from '../schemas.js';
import { guarded, okResult } from '../tool-result.js';
import type { ToolRegistrar } from './registrar.js';

const READ = { readOnlyHint: true, openWorldHint: false } as const;
export const MAX_LIST_LIMIT = 50;
const MAX_BIDS_SHOWN = 100;

export const auctionIdArg = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'auctionId must be a base58 auction id (from auctions_list)')
  .describe('auction id (base58), as returned by auctions_list');

export const registerAuctionReadTools: ToolRegistrar = (server, { client }) => {
  server.registerTool(
    'auctions_list',
    {
      title: 'List or search auctions',
      description:
        'Lists .sol domain auctions from the index, newest state, one page at a time. Filter by status (upcoming, active, ended, cancelled), type, seller, or search text (3+ characters, matches domain, title or seller). ' +
        `Returns at most ${MAX_LIST_LIMIT} auctions per call; pass nextPage as page to continue. Prices are SOL, times ISO UTC (chain time). Use auction_get for bid history and bidding rules.`,
      inputSchema: {
        status: z.enum(AUCTION_STATUSES).optional().describe('e.g. "active" for auctions taking bids now'),
        type: z.enum(AUCTION_TYPES).optional(),
        seller: z.string().optional().describe('seller wallet address, base58'),
        search: z.string().min(3).max(64).optional().describe('3 to 64 characters'),
        sortBy: z.enum(AUCTION_SORT_KEYS).default('endTime'),
        sortOrder: z.enum(['asc', 'desc']).default('asc'),
        page: z.number().int().min(1).max(10_000).default(1),
        limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(20).describe(`1 to ${MAX_LIST_LIMIT}`),
      },
      outputSchema: {
        auctions: z.array(AuctionSummarySchema),
        total: count.describe('auctions matching the filters'),
        page: count,
        pageSize: count,
        nextPage: count.nullable().describe('pass as page for more; null on the last page'),
      },
      annotations: { ...READ, title: 'List or search auctions' },
    },
    ({ limit, page, ...filters }, extra) =>
      guarded('auctions_list', async () => {
        const list = await client.listAuctions(
          { ...filters, page, pageSize: limit },
          { signal: extra.signal },
        );
        const more = list.page * list.pageSize < list.total;
        return okResult(
          {
            auctions: list.auctions.map(auctionSummary),
            total: list.total,
            page: list.page,
            pageSize: list.pageSize,
            nextPage: more ? list.page + 1 : null,
          },
          `${list.total} auctions match; page ${list.page} shows ${list.auctions.length}.`,
        );
      }),
  );

  server.registerTool(
    'auction_get',
    {
      title: 'Auction detail',
      description:
        'One auction read live from the chain: prices (SOL), status, times (ISO UTC, chain time), the bidding rules (nextMinimumBid: the least a bid must carry now; snipe window and extension; secondsLeft) and the newest bids. ' +
        'Call it before bid_place to know the minimum, and after a bid to see it landed.',
      inputSchema: {
        auctionId: auctionIdArg,
        bidLimit: z
          .number()
          .int()
          .min(0)
          .max(MAX_BIDS_SHOWN)
          .default(20)
          .describe(`newest bids to include, 0 to ${MAX_BIDS_SHOWN}`),
      },
      outputSchema: {
        ...AuctionSummaryShape,
        reservePrice: sol.nullable().describe("the hidden reserve, shown only to the seller's key"),
        rules: z.object({
          nextMinimumBid: sol.nullable().describe('SOL a bid must carry now; null when bidding is over'),
          secondsLeft: count.describe('until the end, chain time'),
          snipeProtectionEnabled: z.boolean(),
          snipeWindowSeconds: count,
          snipeExtensionSeconds: count,
          serverTime: iso,
        }),
        bids: z.array(BidShape).describe('newest first'),
        bidsShown: count,
      },
      annotations: { ...READ, title: 'Auction detail' },
    },
    ({ auctionId, bidLimit }, extra) =>
      guarded('auction_get', async () => {
        const detail = auctionDetail(await client.getAuction(auctionId, { signal: extra.signal }), bidLimit);
        const min = detail.rules.nextMinimumBid;
        return okResult(
          detail,
          `${detail.title}: ${detail.status}, ${detail.totalBids} bids, ${min === null ? 'not taking bids' : `next bid at least ${min} SOL`}, ends ${detail.endTime}.`,
        );
      }),
  );
};
