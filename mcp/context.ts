/**
 * Everything a tool needs, built once per process (both transports and the tests share it):
 * the REST client, the key's identity, and — only when a wallet is configured — the signer and
 * its policy. A per-request MCP server (stateless HTTP) reuses the same context.
 */
import type { Connection, Keypair } from '@solana/web3.js';
import type { Logger } from 'pino';
import type { KeyInfo, SnsAuctionClient } from '../src/client/sns-auction-client.js';
import type { SigningPolicy } from './signing/policy.js';
import type { PreparedStore } from './signing/prepared-store.js';
import type { SpendLedger } from './signing/spend-ledger.js';

export interface SignerContext {
  readonly keypair: Keypair;
  readonly address: string;
  readonly policy: SigningPolicy;
  readonly ledger: SpendLedger;
}

export interface McpContext {
  readonly client: SnsAuctionClient;
  /** The API key's record (GET /keys/me): its wallet is the default user and fee payer. */
  readonly me: KeyInfo;
  /** For simulations and tx_submit; null when SOLANA_RPC_URL is not set. */
  readonly connection: Connection | null;
  readonly prepared: PreparedStore;
  /** Null when no WALLET_KEYPAIR is configured (or on the HTTP transport): tx_submit is not offered. */
  readonly signer: SignerContext | null;
  readonly logger: Logger;
  readonly nowMs: () => number;
}
