/**
 * The MCP server factory. Both transports and the tests build servers from here; stateless HTTP
 * builds one per request from the same process-wide context.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerAuctionReadTools } from './tools/auctions.js';
import { registerMarketTools } from './tools/market.js';
import type { ToolRegistrar } from './tools/registrar.js';
import { registerTradeTools } from './tools/trade.js';
import { registerTransactionTools } from './tools/transactions.js';
import { registerWatchTool } from './tools/watch.js';
import { registerWebhookTools } from './tools/webhooks.js';

export const SERVER_INFO = { name: 'sns-auction', version: '0.1.0' } as const;

export interface BuildOptions {
  /** More tool groups, e.g. the strategy runner's controls; run after the built-in ones. */
  readonly extraTools?: readonly ToolRegistrar[];
}

const BUILT_IN: readonly ToolRegistrar[] = [
  registerAuctionReadTools,
  registerWatchTool,
  registerMarketTools,
  registerTradeTools,
  registerTransactionTools,
  registerWebhookTools,
];

export function buildMcpServer(ctx: McpContext, options: BuildOptions = {}): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Auctions of Solana .sol domains. Read with auctions_list, auction_get, market_stats, collection_stats, user_profile_get. ' +
      'auction_create, bid_place and auction_cancel only prepare a transaction (decoded and simulated for you); tx_submit, when offered, signs it under the limits shown by policy_get. ' +
      'Prices are SOL, times ISO UTC in chain time. Errors say what to call next.',
  });
  for (const register of [...BUILT_IN, ...(options.extraTools ?? [])]) register(server, ctx);
  registerResources(server, ctx);
  registerPrompts(server);
  return server;
}

export type { ToolRegistrar };
