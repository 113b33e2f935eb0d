/**
 * An MCP client connected in memory to a server built by buildMcpServer, against the real API of an
 * AuctionApiEnv (real localnet, real Redis). Optionally with the wallet as signer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { expect } from 'vitest';
import { parseMcpConfig } from '../../mcp/config.js';
import type { McpContext } from '../../mcp/context.js';
import { type BuildOptions, buildMcpServer } from '../../mcp/server.js';
import { signingPolicyOf } from '../../mcp/signing/policy.js';
import { PreparedStore } from '../../mcp/signing/prepared-store.js';
import { SpendLedger } from '../../mcp/signing/spend-ledger.js';
import { SnsAuctionClient } from '../../src/client/sns-auction-client.js';
import type { AuctionApiEnv, Wallet } from '../helpers/auction-api.js';

export interface HarnessOptions extends BuildOptions {
  /** Sign with the wallet's keypair (tx_submit offered). */
  readonly signer?: boolean;
  /** Policy environment, e.g. { MAX_BID_SOL: '2', DRY_RUN: 'true' }. */
  readonly env?: Record<string, string>;
  readonly clientOptions?: ClientOptions;
  /** Base URL override (e.g. an unreachable one). */
  readonly baseUrl?: string;
  readonly apiKey?: string;
}

export interface Harness {
  readonly client: Client;
  readonly ctx: McpContext;
  readonly ledgerPath: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls and expects success; returns structuredContent. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls and expects isError; returns the text. */
  fails(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function connectMcp(
  env: Pick<AuctionApiEnv, 'baseUrl' | 'connection'>,
  wallet: Wallet,
  options: HarnessOptions = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-test-'));
  const ledgerPath = join(dir, 'ledger.json');
  const config = parseMcpConfig({
    SNS_AUCTION_API_URL: env.baseUrl,
    SNS_AUCTION_API_KEY: wallet.key,
    SPEND_LEDGER_FILE: ledgerPath,
    CONFIRM_ABOVE_SOL: '1000',
    ...options.env,
  });
  const client = new SnsAuctionClient({
    baseUrl: options.baseUrl ?? env.baseUrl,
    apiKey: options.apiKey ?? wallet.key,
  });
  const me = await new SnsAuctionClient({ baseUrl: env.baseUrl, apiKey: wallet.key }).me();
  const ctx: McpContext = {
    client,
    me,
    connection: env.connection,
    prepared: new PreparedStore(),
    signer: options.signer
      ? {
          keypair: wallet.keypair,
          address: wallet.address,
          policy: signingPolicyOf(config.policy),
          ledger: new SpendLedger(ledgerPath),
        }
      : null,
    logger: pino({ level: 'silent' }),
    nowMs: Date.now,
  };
  const server = buildMcpServer(ctx, options);
  const mcp = new Client({ name: 'test', version: '1.0.0' }, options.clientOptions);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await mcp.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client: mcp,
    ctx,
    ledgerPath,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toContain(JSON.stringify(result.structuredContent));
      return result.structuredContent as never;
    },
    async fails(name, args) {
      const result = await call(name, args);
      expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
      return textOf(result);
    },
    async close() {
      await mcp.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
