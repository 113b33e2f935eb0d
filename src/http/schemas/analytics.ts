import { z } from 'zod';

const count = z.number().int().min(0);
const sol = z.number().min(0);

export const TopDomainSchema = z.object({
  domain: z.string(),
  sales: count,
  averagePrice: sol.describe('SOL'),
  lastSalePrice: sol.describe('SOL'),
});

export const AuctionTypeDistributionSchema = z
  .object({ standard: count, dutch: count, reserve: count, buy_now: count })
  .describe('active auctions per type');

export const MarketAnalyticsSchema = z.object({
  activeAuctions: count,
  completed24h: count.describe('auctions settled in the last 24 hours'),
  totalVolume24h: sol.describe('SOL traded in the last 24 hours'),
  averagePrice24h: sol.describe('SOL'),
  totalEverVolume: sol.describe('cumulative SOL'),
  uniqueBuyers: count,
  uniqueSellers: count,
  topDomains: z.array(TopDomainSchema),
  auctionTypeDistribution: AuctionTypeDistributionSchema,
});

export const CollectionAnalyticsSchema = z.object({
  slug: z.string(),
  name: z.string(),
  activeCount: count,
  completedCount: count,
  totalVolume: sol.describe('SOL'),
  volume24h: sol.describe('SOL'),
  floorPrice: sol.describe('lowest current asking price, SOL'),
  averagePrice: sol.describe('SOL'),
  trend: z.array(sol).length(7).describe('daily SOL volume of the last 7 days, oldest first'),
  lastUpdated: z.number().int().describe('Unix ms'),
});

export const CollectionsAnalyticsSchema = z.object({
  collections: z.array(CollectionAnalyticsSchema),
  generatedAt: z.number().int().describe('Unix ms'),
});

export type MarketAnalytics = z.infer<typeof MarketAnalyticsSchema>;
export type CollectionsAnalytics = z.infer<typeof CollectionsAnalyticsSchema>;
