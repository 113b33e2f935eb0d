/**
 * Auction request and response schemas: SPEC.md's field names, API.md's additions. The same zod
 * objects validate requests, serialize responses and generate the OpenAPI document.
 */
import { z } from 'zod';
import { MAX_SNIPE_EXTENSION_SECONDS } from '../../core/auction-rules/create-rules.js';
import { AUCTION_STATUSES } from '../../core/auction-rules/status.js';
import { AUCTION_TYPES, MAX_DOMAINS_PER_AUCTION } from '../../core/program/auction-account.js';
import { AUCTION_SORT_KEYS, MAX_PAGE_SIZE } from '../../indexer/auction-index-query.js';
import { AddressSchema } from './common.js';

const sol = z.number().min(0).describe('SOL (at most 9 decimals)');
const ms = z.number().int().describe('Unix time, milliseconds');
const MAX_PAGE = 1_000_000;

export const TxVersionField = z
  .union([z.literal(0), z.literal('legacy')], { error: 'must be 0 (v0) or "legacy"' })
  .optional()
  .describe(
    'transaction format: "legacy" (default, what `Transaction.from` decodes) or 0 for a v0 transaction',
  );

// ---- requests

const pageNumber = (what: string, max: number) =>
  z.coerce.number<string>().int().min(1).max(max).describe(what);

export const ListAuctionsQuery = z.object({
  page: pageNumber('page number, from 1', MAX_PAGE).default(1),
  pageSize: z.coerce
    .number<string>()
    .int()
    .min(1)
    .default(20)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE))
    .describe(`items per page, default 20; values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}`),
  status: z.enum(AUCTION_STATUSES).optional(),
  type: z.enum(AUCTION_TYPES).optional(),
  seller: AddressSchema.optional().describe('seller wallet address, base58'),
  // Shorter terms would match most of the index and scan it all; 3 is what the trigram index serves.
  search: z
    .string()
    .trim()
    .min(3, 'search needs at least 3 characters')
    .max(64)
    .optional()
    .describe('3 to 64 characters; matches a domain name, the title or the seller (case-insensitive)'),
  sortBy: z.enum(AUCTION_SORT_KEYS).default('endTime'),
  sortOrder: z.enum(['asc', 'desc']).default('asc'),
});

export const AuctionIdParams = z.object({
  id: AddressSchema.describe('auction id: the auction PDA, base58'),
});

const typePrice = (when: string) =>
  sol.nullish().describe(`SOL; required when type is ${when}, refused otherwise`);

export const CreateAuctionBody = z.object({
  domainNames: z
    .array(z.string().max(256))
    .min(1)
    .max(MAX_DOMAINS_PER_AUCTION)
    .describe(
      "1 to 5 registered .sol names owned by the key's wallet; each 3 to 63 characters ending with .sol",
    ),
  type: z.enum(AUCTION_TYPES),
  startingPrice: sol.describe('SOL; the first bid must be at least this (dutch: the price at the start)'),
  minBidIncrement: sol.describe('SOL, the minimum raise between bids'),
  durationHours: z.number().min(0.25).max(720).describe('0.25 to 720 (15 minutes to 30 days)'),
  reservePrice: typePrice('reserve'),
  buyNowPrice: typePrice('buy_now'),
  dutchEndPrice: typePrice('dutch (the floor, below startingPrice)'),
  snipeProtectionEnabled: z.boolean().optional().describe('default false'),
  snipeExtensionSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_SNIPE_EXTENSION_SECONDS)
    .optional()
    .describe('seconds added when a bid lands inside the snipe window; default 300'),
  title: z.string().trim().min(1).max(120).optional().describe('defaults to the domains joined with ", "'),
  category: z.string().trim().min(1).max(32).optional().describe('default "general"'),
  tags: z.array(z.string().trim().min(1).max(32)).max(10).optional(),
  startTime: ms
    .positive()
    .optional()
    .describe('scheduled start, Unix ms of chain time; default: when the transaction lands'),
  txVersion: TxVersionField,
});

export const PlaceBidBody = z.object({
  bidAmount: z
    .number()
    .positive()
    .describe('SOL, at least the current minimum bid; for dutch the most you will pay'),
  auctionId: z.string().optional().describe('repeats the path id; must match it when sent'),
  txVersion: TxVersionField,
});

export const CancelAuctionBody = z.object({ txVersion: TxVersionField }).nullish();

// ---- responses

export const BidSchema = z.object({
  bidder: z.string(),
  amount: sol,
  timestamp: ms,
  transactionId: z.string().describe('signature of the transaction that placed the bid'),
});

export const AuctionListItemSchema = z.object({
  id: z.string().describe('auction PDA, base58'),
  seller: z.string(),
  domains: z.array(z.string()),
  type: z.enum(AUCTION_TYPES),
  status: z.enum(AUCTION_STATUSES),
  startingPrice: sol,
  currentPrice: sol.describe('SOL; dutch: the price now, falling with chain time'),
  minBidIncrement: sol,
  buyNowPrice: sol.nullable().describe('buy_now only'),
  dutchEndPrice: sol.nullable().describe('dutch only: the floor'),
  topBidder: z.string().nullable(),
  totalBids: z.number().int(),
  startTime: ms,
  endTime: ms,
  snipeProtectionEnabled: z.boolean(),
  snipeExtensionSeconds: z.number().int(),
  featured: z.boolean(),
  category: z.string(),
  tags: z.array(z.string()),
  createdAt: ms,
  title: z.string(),
  settled: z.boolean(),
  winner: z.string().nullable(),
  finalPrice: sol.nullable().describe('SOL paid by the winner; null unless sold'),
  reserveMet: z.boolean().nullable().describe('null when the auction has no hidden reserve'),
});

export const AuctionDetailSchema = AuctionListItemSchema.extend({
  reservePrice: sol
    .nullable()
    .describe("shown to the seller's keys only; null otherwise and without a reserve"),
  bids: z.array(BidSchema),
  snipeWindowSeconds: z.number().int().describe('a bid with this many seconds or fewer left extends the end'),
  nextMinimumBid: sol.nullable().describe('SOL a bid must carry now; null when bidding is over'),
  serverTime: ms.describe('chain time the statuses and prices were computed at'),
});

export const AuctionListSchema = z.object({
  auctions: z.array(AuctionListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

const RulesSchema = z.object({
  minimumBid: sol,
  snipeWindowSeconds: z.number().int(),
  snipeExtensionSeconds: z.number().int(),
  endTime: ms,
  serverTime: ms.describe('chain time'),
});

const WalletTransactionFields = {
  transaction: z.string().describe("base64 unsigned transaction; sign with the key's wallet and broadcast"),
  blockhash: z.string(),
  lastValidBlockHeight: z.number().int(),
  expiresAt: ms.describe('when the blockhash expires: rebuild the transaction after this'),
};

export const CreatedAuctionSchema = z.object({
  auctionId: z.string().describe('auction PDA: the :id of later calls'),
  ...WalletTransactionFields,
  seller: z.string(),
  status: z.literal('upcoming'),
  estimatedStartTime: ms,
  rules: RulesSchema,
});

export const PreparedBidSchema = z.object({
  ...WalletTransactionFields,
  auctionId: z.string(),
  bidder: z.string(),
  bidAmount: sol,
  nextMinimumBid: sol.describe('SOL the next bid must carry once this one lands'),
  timestamp: ms.describe('chain time the bid was checked at'),
  rules: RulesSchema,
});

export const PreparedCancelSchema = z.object({
  ...WalletTransactionFields,
  auctionId: z.string(),
  seller: z.string(),
});

export const SettlementSchema = z.object({
  auctionId: z.string(),
  status: z.literal('ended'),
  settled: z.literal(true),
  winner: z.string().nullable(),
  finalPrice: sol.nullable(),
  reserveMet: z.boolean().nullable(),
  transactionId: z
    .string()
    .describe('signature of the settling transaction (for dutch/buy_now, the winning bid)'),
  settledAt: ms,
  alreadySettled: z.boolean().describe('true when the auction was settled before this call'),
});
