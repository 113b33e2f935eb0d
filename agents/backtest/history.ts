/**
 * A recorded history: for each auction, the detail the runner first saw and every bid that followed
 * (from the final detail), plus the strategies that ran and their live decisions for comparison.
 * Plain JSON (SOL numbers, chain ms), so a history file can be read and edited by hand.
 */
import { z } from 'zod';
import { StrategySpecSchema } from '../runner/instance-store.js';

const BidRow = z.object({ bidder: z.string(), amount: z.number(), timestamp: z.number() });

export const HistorySchema = z.object({
  version: z.literal(1),
  /** The wallet whose bids the backtest re-decides (they are left out of the replayed market). */
  wallet: z.string(),
  auctions: z.array(
    z.object({
      /** The API detail at the first observation (its bids are the market before the run). */
      initial: z.record(z.string(), z.unknown()),
      /** Every bid of the auction, oldest first, from the final detail. */
      bids: z.array(BidRow),
    }),
  ),
  strategies: z.array(StrategySpecSchema.extend({ id: z.string() })),
  /** The live run's bid decisions per instance, to compare against the replay. */
  live: z
    .record(z.string(), z.array(z.object({ auctionId: z.string(), amount: z.string(), now: z.number() })))
    .default({}),
});
export type History = z.output<typeof HistorySchema>;
export type HistoryInput = z.input<typeof HistorySchema>;
