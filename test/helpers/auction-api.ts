/**
 * The auction API as a client uses it: keys tied to funded wallets, unsigned transactions from the
 * API signed and sent exactly as API.md's compatibility snippet does, on the API's own localnet.
 */
import { type Connection, type Keypair, Transaction, VersionedTransaction } from '@solana/web3.js';
import { expect } from 'vitest';
import { AUCTION_ACCOUNT_SIZE } from '../../src/core/program/auction-account.js';
import { type ApiResponse, call, startTestApi, type TestApi, type TestApiOptions } from './api.js';
import { SOL, startTestLocalnet, type TestLocalnet } from './localnet.js';

export interface AuctionApiEnv {
  readonly t: TestLocalnet;
  readonly api: TestApi;
  readonly baseUrl: string;
  readonly connection: Connection;
  /** Rent-exempt minimum of an auction account: what a seller leaves in the auction PDA. */
  readonly rent: bigint;
  close(): Promise<void>;
}

export async function startAuctionApi(
  name: string,
  options: Omit<TestApiOptions, 'localnet'> & { feeBps?: number } = {},
): Promise<AuctionApiEnv> {
  const t = await startTestLocalnet({ feeBps: options.feeBps ?? 0 });
  const api = await startTestApi(name, { ...options, localnet: t.localnet });
  const rent = BigInt(await t.connection.getMinimumBalanceForRentExemption(AUCTION_ACCOUNT_SIZE));
  return {
    t,
    api,
    baseUrl: api.baseUrl,
    connection: t.connection,
    rent,
    async close() {
      await api.close();
      await t.close();
    },
  };
}

export interface Wallet {
  readonly keypair: Keypair;
  readonly address: string;
  /** An API key tied to this wallet. */
  readonly key: string;
}

/** A funded wallet with a key: bootstrapped (no key) or joining the account of `using`. */
export async function walletWithKey(
  env: Pick<AuctionApiEnv, 't' | 'baseUrl'>,
  options: { using?: string; lamports?: bigint; type?: 'agent' | 'developer' | 'readonly' } = {},
): Promise<Wallet> {
  const keypair = await env.t.fundedKeypair(options.lamports ?? 100n * SOL);
  const address = keypair.publicKey.toBase58();
  const created = await call<{ key: string }>(env.baseUrl, 'POST', '/keys/create', {
    key: options.using,
    body: { name: 'auction test', type: options.type ?? 'agent', walletAddress: address },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { keypair, address, key: created.body.data.key };
}

/** API.md's compatibility snippet: decode the legacy transaction, sign, send raw, confirm. */
export async function signAndSend(connection: Connection, base64: string, signer: Keypair): Promise<string> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(signer);
  const sig = await connection.sendRawTransaction(tx.serialize());
  const { value } = await connection.confirmTransaction(sig, 'confirmed');
  expect(value.err).toBeNull();
  return sig;
}

/** The same for a v0 transaction (`txVersion: 0`). */
export async function signAndSendV0(
  connection: Connection,
  base64: string,
  signer: Keypair,
): Promise<string> {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  expect(tx.version).toBe(0);
  tx.sign([signer]);
  const sig = await connection.sendRawTransaction(tx.serialize());
  const { value } = await connection.confirmTransaction(sig, 'confirmed');
  expect(value.err).toBeNull();
  return sig;
}

export function expectOk<T>(response: ApiResponse<T>): T {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.success).toBe(true);
  return response.body.data;
}

export interface CreatedViaApi {
  readonly auctionId: string;
  readonly domainNames: string[];
  readonly signature: string;
  readonly response: Record<string, unknown>;
}

/** Registers fresh domains for `seller`, creates the auction through the API and lands it. */
export async function createViaApi(
  env: Pick<AuctionApiEnv, 't' | 'baseUrl' | 'connection'>,
  seller: Wallet,
  body: Record<string, unknown> = {},
  domainCount = 1,
): Promise<CreatedViaApi> {
  const domainNames = await env.t.registerDomains(seller.keypair.publicKey, domainCount);
  const data = expectOk(
    await call<{ auctionId: string; transaction: string }>(env.baseUrl, 'POST', '/auctions/create', {
      key: seller.key,
      body: {
        domainNames,
        type: 'standard',
        startingPrice: 1,
        minBidIncrement: 0.1,
        durationHours: 1,
        ...body,
      },
    }),
  );
  const signature = await signAndSend(env.connection, data.transaction, seller.keypair);
  return { auctionId: data.auctionId, domainNames, signature, response: data };
}

/** Bids through the API and lands the transaction; returns its signature. */
export async function bidViaApi(
  env: Pick<AuctionApiEnv, 'baseUrl' | 'connection'>,
  bidder: Wallet,
  auctionId: string,
  bidAmount: number,
): Promise<string> {
  const data = expectOk(
    await call<{ transaction: string }>(env.baseUrl, 'POST', `/auctions/${auctionId}/bid`, {
      key: bidder.key,
      body: { bidAmount },
    }),
  );
  return signAndSend(env.connection, data.transaction, bidder.keypair);
}
