/**
 * The tool surface as a host sees it: names, annotations and schemas (file snapshot), portable
 * schemas (bounded integers, draft-07), tx_submit offered only with a signer, extra registrars.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Keypair } from '@solana/web3.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseMcpConfig } from '../../mcp/config.js';
import type { McpContext } from '../../mcp/context.js';
import { buildMcpServer, type ToolRegistrar } from '../../mcp/server.js';
import { signingPolicyOf } from '../../mcp/signing/policy.js';
import { PreparedStore } from '../../mcp/signing/prepared-store.js';
import { SpendLedger } from '../../mcp/signing/spend-ledger.js';
import { SnsAuctionClient } from '../../src/client/sns-auction-client.js';

// Listing makes no REST call, so the context needs no running API.
function contextFor(withSigner: boolean): McpContext {
  const keypair = Keypair.fromSeed(new Uint8Array(32).fill(7));
  const address = keypair.publicKey.toBase58();
  const config = parseMcpConfig({ SNS_AUCTION_API_KEY: 'sk_test_listing_only' });
  return {
    client: new SnsAuctionClient({ baseUrl: 'http://127.0.0.1:1/api/v1' }),
    me: {
      id: 'k1',
      prefix: 'sk_test_list',
      name: 'agent',
      type: 'agent',
      walletAddress: address,
      createdAt: 0,
      expiresAt: null,
      revokedAt: null,
      accountId: 'a1',
      analyticsRateLimit: 200,
    },
    connection: null,
    prepared: new PreparedStore(),
    signer: withSigner
      ? {
          keypair,
          address,
          policy: signingPolicyOf(config.policy),
          ledger: new SpendLedger('/nonexistent/ledger.json'),
        }
      : null,
    logger: pino({ level: 'silent' }),
    nowMs: Date.now,
  };
}

async function listTools(ctx: McpContext, extraTools: ToolRegistrar[] = []) {
  const server = buildMcpServer(ctx, { extraTools });
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  await client.connect(c);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

const flags = (a: Record<string, unknown> | undefined) =>
  [a?.['readOnlyHint'], a?.['destructiveHint'], a?.['idempotentHint'], a?.['openWorldHint']]
    .map((v) => (v === true ? 'T' : v === false ? 'F' : '-'))
    .join('');

describe('tools/list', () => {
  it('matches the snapshot: names, annotations, input and output schemas', async () => {
    const tools = await listTools(contextFor(true));
    await expect(JSON.stringify(tools, null, 2)).toMatchFileSnapshot('__snapshots__/tools-list.json.snap');
  });

  it('annotates each tool as the table says (readOnly, destructive, idempotent, openWorld)', async () => {
    const tools = await listTools(contextFor(true));
    expect(Object.fromEntries(tools.map((t) => [t.name, flags(t.annotations)]))).toEqual({
      auctions_list: 'T--F',
      auction_get: 'T--F',
      auction_watch: 'T--F',
      market_stats: 'T--F',
      collection_stats: 'T--F',
      user_profile_get: 'T--F',
      auction_create: 'FFFF',
      bid_place: 'FFFF',
      auction_cancel: 'FFFF',
      auction_settle: 'FFTF',
      tx_submit: 'FTFT',
      policy_get: 'T--F',
      webhooks_list: 'T--F',
      webhook_create: 'FFFT',
      webhook_delete: 'FTTF',
    });
    for (const t of tools) {
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(t.description?.length, t.name).toBeGreaterThan(60);
      expect(t.outputSchema, t.name).toBeDefined();
    }
  });

  it('emits portable schemas: draft-07, every integer bounded within safe integers', async () => {
    const tools = await listTools(contextFor(true));
    const bounds: number[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item);
        return;
      }
      if (node === null || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'minimum' || k === 'maximum') && typeof v === 'number') bounds.push(v);
        walk(v);
      }
    };
    for (const t of tools) {
      expect(t.inputSchema['$schema'] ?? 'http://json-schema.org/draft-07/schema#').toContain('draft-07');
      walk(t.inputSchema);
      walk(t.outputSchema);
    }
    expect(bounds.length).toBeGreaterThan(10);
    expect(bounds.filter((b) => b < 0 || b > Number.MAX_SAFE_INTEGER)).toEqual([]);
  });

  it('offers tx_submit only with a wallet, and lists tools from extra registrars', async () => {
    const extra: ToolRegistrar = (server) =>
      server.registerTool(
        'strategy_status',
        { description: 'strategy runner status', inputSchema: { id: z.string() } },
        () => ({ content: [{ type: 'text', text: 'ok' }] }),
      );
    const names = (await listTools(contextFor(false), [extra])).map((t) => t.name);
    expect(names).not.toContain('tx_submit');
    expect(names).toContain('bid_place');
    expect(names.at(-1)).toBe('strategy_status');
  });
});
