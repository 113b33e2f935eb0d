/** Read tools: market and collection analytics, user profiles. */
import { z } from 'zod';
import { USER_ACTIVITY_TYPES } from '../../src/http/schemas/users.js';
import { isoOf } from '../present.js';
import { count, iso, sol } from '../schemas.js';
import { guarded, okResult } from '../tool-result.js';
import type { ToolRegistrar } from './registrar.js';

const READ = { readOnlyHint: true, openWorldHint: false } as const;

export const MarketStatsShape = {
  activeAuctions: count,
  completed24h: count,
  totalVolume24h: sol,
  averagePrice24h: sol,
  totalEverVolume: sol,
  uniqueBuyers: count,
  uniqueSellers: count,
  topDomains: z.array(z.object({ domain: z.string(), sales: count, averagePrice: sol, lastSalePrice: sol })),
  auctionTypeDistribution: z.object({ standard: count, dutch: count, reserve: count, buy_now: count }),
};

const CollectionShape = z.object({
  slug: z.string(),
  name: z.string(),
  activeCount: count,
  completedCount: count,
  totalVolume: sol,
  volume24h: sol,
  floorPrice: sol,
  averagePrice: sol,
  trend: z.array(sol).describe('daily SOL volume of the last 7 days, oldest first'),
  lastUpdated: iso,
});

export const UserProfileShape = {
  address: z.string(),
  registryName: z.string().nullable(),
  stats: z.object({
    totalAuctionsCreated: count,
    totalAuctionsWon: count,
    totalBidsPlaced: count,
    totalVolumeTraded: sol,
    averageBidSize: sol,
    winRate: z.number().min(0).max(100).describe('percent'),
  }),
  recentActivity: z.array(
    z.object({
      type: z.enum(USER_ACTIVITY_TYPES),
      auctionId: z.string(),
      domain: z.string(),
      amount: sol.nullable(),
      time: iso,
      transactionId: z.string(),
    }),
  ),
};

export const registerMarketTools: ToolRegistrar = (server, ctx) => {
  const { client } = ctx;
  server.registerTool(
    'market_stats',
    {
      title: 'Market statistics',
      description:
        'Whole-market numbers: active auctions, sales and SOL volume of the last 24 hours, all-time volume, unique buyers/sellers, top domains by sales and active auctions per type. Use it to judge whether a price is high or low.',
      outputSchema: MarketStatsShape,
      annotations: { ...READ, title: 'Market statistics' },
    },
    (extra) =>
      guarded('market_stats', async () => {
        const m = await ctx.client.marketAnalytics({ signal: extra.signal });
        return okResult(
          { ...m },
          `${m.activeAuctions} active auctions; ${m.completed24h} sales for ${m.totalVolume24h} SOL in 24 h.`,
        );
      }),
  );

  server.registerTool(
    'collection_stats',
    {
      title: 'Collection statistics',
      description:
        'Per-collection numbers (e.g. 3-digit, 4-letter domains): floor price, average price, 24 h and total volume, active and completed counts, 7-day volume trend. Give slug to get one collection; without it all are returned.',
      inputSchema: {
        slug: z.string().min(1).max(64).optional().describe('one collection, e.g. from a previous call'),
      },
      outputSchema: { collections: z.array(CollectionShape), generatedAt: iso },
      annotations: { ...READ, title: 'Collection statistics' },
    },
    ({ slug }, extra) =>
      guarded('collection_stats', async () => {
        const all = await client.collectionAnalytics({ signal: extra.signal });
        const chosen = slug === undefined ? all.collections : all.collections.filter((c) => c.slug === slug);
        if (slug !== undefined && chosen.length === 0) {
          const known = all.collections.map((c) => c.slug).join(', ') || 'none yet';
          throw new Error(
            `no collection "${slug}"; known slugs: ${known}. Call collection_stats without slug`,
          );
        }
        return okResult({
          collections: chosen.map((c) => ({ ...c, lastUpdated: isoOf(c.lastUpdated) })),
          generatedAt: isoOf(all.generatedAt),
        });
      }),
  );

  server.registerTool(
    'user_profile_get',
    {
      title: 'User profile',
      description:
        "A wallet's auction profile: its .sol name, auctions created and won, bids placed, SOL traded, win rate and its last 20 actions. Without address: this server's own wallet (the API key's).",
      inputSchema: {
        address: z
          .string()
          .min(32)
          .max(44)
          .optional()
          .describe('wallet address, base58; default: own wallet'),
      },
      outputSchema: UserProfileShape,
      annotations: { ...READ, title: 'User profile' },
    },
    ({ address }, extra) =>
      guarded('user_profile_get', async () => {
        const p = await client.getUser(address ?? ctx.me.walletAddress, { signal: extra.signal });
        return okResult({
          ...p,
          recentActivity: p.recentActivity.map(({ timestamp, ...a }) => ({ ...a, time: isoOf(timestamp) })),
        });
      }),
  );
};
