import { z } from 'zod';

const count = z.number().int().min(0);
const sol = z.number().min(0);

export const UserStatsSchema = z.object({
  totalAuctionsCreated: count,
  totalAuctionsWon: count,
  totalBidsPlaced: count,
  totalVolumeTraded: sol.describe('SOL of the sales the wallet won or sold'),
  averageBidSize: sol.describe('SOL'),
  winRate: z.number().min(0).max(100).describe('auctions won per auction bid on (or bought), in percent'),
});

export const USER_ACTIVITY_TYPES = [
  'auction_created',
  'bid_placed',
  'auction_won',
  'auction_sold',
  'auction_cancelled',
] as const;

export const UserActivitySchema = z.object({
  type: z.enum(USER_ACTIVITY_TYPES),
  auctionId: z.string(),
  domain: z.string().describe("the auction's (first) domain"),
  amount: sol.nullable().describe('SOL (starting price, bid, sale price); null for a cancellation'),
  timestamp: z.number().int().describe('Unix ms, chain time'),
  transactionId: z.string(),
});

export const UserProfileSchema = z.object({
  address: z.string(),
  registryName: z.string().nullable().describe("the wallet's registered .sol name, null when it has none"),
  stats: UserStatsSchema,
  recentActivity: z.array(UserActivitySchema).describe('the last 20, newest first'),
});

export type UserProfile = z.infer<typeof UserProfileSchema>;
