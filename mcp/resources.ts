/** Read-only context a host can attach: an auction, a user profile, the market. */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.js';
import { auctionDetail } from './present.js';

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

const one = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

export function registerResources(server: McpServer, { client }: McpContext): void {
  server.registerResource(
    'auction',
    new ResourceTemplate('auction://{id}', { list: undefined }),
    {
      title: 'Auction',
      description: 'One auction with its rules and the newest 50 bids (the same data as auction_get)',
      mimeType: 'application/json',
    },
    async (uri, { id }) => json(uri, auctionDetail(await client.getAuction(one(id)), 50)),
  );
  server.registerResource(
    'user',
    new ResourceTemplate('user://{address}', { list: undefined }),
    {
      title: 'User profile',
      description: "A wallet's auction profile and recent activity",
      mimeType: 'application/json',
    },
    async (uri, { address }) => json(uri, await client.getUser(one(address))),
  );
  server.registerResource(
    'market',
    'market://stats',
    { title: 'Market statistics', description: 'Whole-market analytics', mimeType: 'application/json' },
    async (uri) => json(uri, await client.marketAnalytics()),
  );
}
