/** Two workflow prompts that walk the agent through the tools. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const user = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
});

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'evaluate_auction',
    {
      title: 'Evaluate an auction',
      description: 'Judge whether an auction is worth bidding on and at what price',
      argsSchema: { auctionId: z.string().describe('auction id from auctions_list') },
    },
    ({ auctionId }) =>
      user(
        `Evaluate auction ${auctionId} for me.\n` +
          `1. Call auction_get with auctionId ${auctionId}: note type, status, currentPrice, rules.nextMinimumBid, secondsLeft, snipe rules and the bid history.\n` +
          '2. Call market_stats and collection_stats to compare with recent sale prices and floors of similar domains.\n' +
          "3. Call user_profile_get with the seller's address to see their track record.\n" +
          '4. Answer: a fair value range in SOL, the risks (reserve, snipe extension, competition), and whether to bid. Do not place any bid.',
      ),
  );
  server.registerPrompt(
    'bidding_plan',
    {
      title: 'Bidding plan',
      description: 'Plan bids on an auction within a budget, then carry them out with confirmation',
      argsSchema: {
        auctionId: z.string().describe('auction id from auctions_list'),
        budgetSol: z.string().describe('the most to spend, in SOL'),
      },
    },
    ({ auctionId, budgetSol }) =>
      user(
        `Plan my bidding on auction ${auctionId} with a budget of ${budgetSol} SOL.\n` +
          '1. Call policy_get: never plan above maxBidSol or the daily cap left.\n' +
          `2. Call auction_get for ${auctionId}: nextMinimumBid, secondsLeft, snipe window/extension, type (dutch: the price falls; buy_now: buyNowPrice ends it).\n` +
          `3. Propose a plan: opening bid, increments, when to stop (never above ${budgetSol} SOL), and how the snipe rules change timing.\n` +
          '4. Only after I agree: bid_place with amountSol, check the prepared receipt and simulation, then tx_submit with its preparedId. After each bid call auction_get to confirm you are the top bidder.\n' +
          '5. If a call fails, follow the error text (e.g. bid below the minimum: call auction_get and bid at least the minimum).',
      ),
  );
}
