/**
 * Builds the process-wide context from the configuration: checks the API key (exists, agent type),
 * loads the wallet and checks it is the key's wallet. Fails with a message the operator can act on.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createConnection } from '../src/chain/connection.js';
import { readKeypairFile } from '../src/chain/keypair-file.js';
import { isApiError } from '../src/client/api-error.js';
import { SnsAuctionClient } from '../src/client/sns-auction-client.js';
import type { McpConfig } from './config.js';
import type { McpContext, SignerContext } from './context.js';
import { signingPolicyOf } from './signing/policy.js';
import { PreparedStore } from './signing/prepared-store.js';
import { SpendLedger } from './signing/spend-ledger.js';

export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export interface StartupOptions {
  readonly logger: Logger;
  /** False on the HTTP transport: a network-reachable server never signs. */
  readonly allowSigning: boolean;
  readonly fetch?: typeof fetch;
  readonly nowMs?: () => number;
}

export async function createMcpContext(config: McpConfig, options: StartupOptions): Promise<McpContext> {
  const client = new SnsAuctionClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let me: Awaited<ReturnType<SnsAuctionClient['me']>>;
  try {
    me = await client.me();
  } catch (e) {
    if (isApiError(e, 'UNAUTHORIZED')) {
      throw new StartupError(`SNS_AUCTION_API_KEY was refused by ${config.apiUrl}: ${e.message}`);
    }
    if (isApiError(e, 'UNREACHABLE'))
      throw new StartupError(`cannot reach SNS_AUCTION_API_URL: ${e.message}`);
    throw e;
  }
  if (me.type !== 'agent') {
    throw new StartupError(
      `SNS_AUCTION_API_KEY is a "${me.type}" key (prefix ${me.prefix}); the MCP server needs an "agent" key. ` +
        `Create one for wallet ${me.walletAddress} with POST /keys/create {"type":"agent", ...} and set it.`,
    );
  }
  const connection = config.rpcUrl ? createConnection(config.rpcUrl) : null;
  const signer = options.allowSigning ? await loadSigner(config, me.walletAddress, options) : null;
  if (config.walletKeypairPath && !options.allowSigning) {
    options.logger.warn('WALLET_KEYPAIR ignored: the HTTP transport never signs (use stdio for tx_submit)');
  }
  const nowMs = options.nowMs ?? Date.now;
  return {
    client,
    me,
    connection,
    prepared: new PreparedStore(nowMs),
    signer,
    logger: options.logger,
    nowMs,
  };
}

async function loadSigner(
  config: McpConfig,
  keyWallet: string,
  options: StartupOptions,
): Promise<SignerContext | null> {
  if (!config.walletKeypairPath) return null;
  if (!config.rpcUrl) throw new StartupError('WALLET_KEYPAIR needs SOLANA_RPC_URL (to simulate and send)');
  const keypair = await readKeypairFile(config.walletKeypairPath).catch((e: unknown) => {
    throw new StartupError((e as Error).message);
  });
  const address = keypair.publicKey.toBase58();
  if (address !== keyWallet) {
    throw new StartupError(
      `WALLET_KEYPAIR holds wallet ${address} but the API key belongs to wallet ${keyWallet}; the API prepares transactions for the key's wallet, so they must match`,
    );
  }
  return {
    keypair,
    address,
    policy: signingPolicyOf(config.policy),
    ledger: new SpendLedger(
      config.spendLedgerFile ?? join(homedir(), '.sns-auction', `mcp-spend-${address}.json`),
      options.nowMs ?? Date.now,
    ),
  };
}
