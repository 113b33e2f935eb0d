/**
 * Output shapes of the tools. Written for portability of the draft-07 JSON Schema that tools/list
 * carries: every integer has explicit bounds (zod's int() alone emits ±2^53 bounds) and times are
 * ISO strings an agent reads without arithmetic.
 */
import { z } from 'zod';
import { AUCTION_STATUSES } from '../src/core/auction-rules/status.js';
import { AUCTION_TYPES } from '../src/core/program/auction-account.js';

export const sol = z.number().min(0).describe('SOL');
export const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const iso = z.string().describe('ISO 8601 time, UTC (chain time for auction times)');

export const AuctionSummaryShape = {
  id: z.string().describe('auction id (base58); pass it as auctionId'),
  title: z.string(),
  domains: z.array(z.string()),
  type: z.enum(AUCTION_TYPES),
  status: z.enum(AUCTION_STATUSES),
  seller: z.string(),
  currentPrice: sol.describe('SOL: top bid, or the starting price; dutch: the price now'),
  startingPrice: sol,
  minBidIncrement: sol,
  buyNowPrice: sol.nullable(),
  dutchEndPrice: sol.nullable(),
  topBidder: z.string().nullable(),
  totalBids: count,
  startTime: iso,
  endTime: iso,
  settled: z.boolean(),
  winner: z.string().nullable(),
  finalPrice: sol.nullable(),
  reserveMet: z.boolean().nullable().describe('null when there is no hidden reserve'),
  category: z.string(),
  tags: z.array(z.string()),
};
export const AuctionSummarySchema = z.object(AuctionSummaryShape);

export const BidShape = z.object({
  bidder: z.string(),
  amount: sol,
  time: iso,
  transactionId: z.string(),
});

export const SimulationSchema = z
  .object({
    ok: z.boolean(),
    error: z.string().nullable(),
    unitsConsumed: count.nullable(),
    logsTail: z.array(z.string()),
    feePayerOutflowSol: z.string().describe('net SOL leaving the fee payer if it lands now, fee included'),
  })
  .nullable()
  .describe('null when the server has no SOLANA_RPC_URL to simulate with');

export const TransactionSummaryShape = {
  version: z.union([z.literal('legacy'), z.literal(0)]),
  feePayer: z.string(),
  signers: z.array(z.string()),
  programs: z.array(z.object({ id: z.string(), name: z.string() })),
  instructionCount: count,
  blockhash: z.string(),
  usesLookupTables: z.boolean(),
  simulation: SimulationSchema,
};

export const PreparedShape = {
  preparedId: z
    .string()
    .describe('pass to tx_submit (when offered) to sign and send exactly this transaction'),
  kind: z.enum(['auction_create', 'bid_place', 'auction_cancel']),
  auctionId: z.string(),
  receipt: z.string().describe('what the transaction does, echoing the request'),
  transactionBase64: z.string().describe('the unsigned transaction, for a caller that signs elsewhere'),
  lastValidBlockHeight: count,
  expiresAt: iso.describe('after this the transaction cannot land: prepare again'),
  transaction: z.object(TransactionSummaryShape),
  nextStep: z.string(),
};
