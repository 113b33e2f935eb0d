import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Connection, Keypair, LAMPORTS_PER_SOL, Transaction } from '@solana/web3.js';
import type { Logger } from 'pino';
import { sendAndConfirmByPolling } from '../chain/send-and-confirm.js';

/** What `npm run dev` seeded, kept in DATA_DIR/demo.json (local keys of local wallets). */
export interface DemoData {
  readonly wallets: Record<
    'alice' | 'bob' | 'carol',
    { address: string; secretKey: number[]; apiKey: string }
  >;
  readonly auctions: { type: string; auctionId: string; domains: string[] }[];
}

interface Seeder {
  readonly baseUrl: string;
  /** The embedded localnet's `localnet_registerDomain`. */
  readonly registerDomain: (name: string, owner: string) => Promise<unknown>;
  readonly connection: Connection;
  readonly dataDir: string;
  readonly logger: Logger;
}

const DEMO_AUCTIONS = [
  {
    who: 'alice',
    type: 'standard',
    domainNames: ['sunrise.sol'],
    startingPrice: 1,
    minBidIncrement: 0.1,
    durationHours: 24,
    snipeProtectionEnabled: true,
    title: 'Sunrise',
  },
  {
    who: 'alice',
    type: 'dutch',
    domainNames: ['777.sol', '888.sol'],
    startingPrice: 5,
    minBidIncrement: 0.1,
    durationHours: 2,
    dutchEndPrice: 1,
    category: '3-digit',
  },
  {
    who: 'alice',
    type: 'reserve',
    domainNames: ['atlas.sol'],
    startingPrice: 0.5,
    minBidIncrement: 0.1,
    durationHours: 12,
    reservePrice: 3,
  },
  {
    who: 'bob',
    type: 'buy_now',
    domainNames: ['orbit.sol'],
    startingPrice: 2,
    minBidIncrement: 0.1,
    durationHours: 48,
    buyNowPrice: 2,
  },
] as const;

async function api<T>(baseUrl: string, path: string, body: unknown, key?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; data: T; error?: string };
  if (!json.success) throw new Error(`seeding: POST ${path} failed: ${json.error}`);
  return json.data;
}

async function signAndSend(connection: Connection, base64: string, signer: Keypair): Promise<string> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(signer);
  const { signature } = await sendAndConfirmByPolling(connection, tx.serialize(), {
    blockhash: tx.recentBlockhash!,
    lastValidBlockHeight: tx.lastValidBlockHeight ?? Number.MAX_SAFE_INTEGER,
  });
  return signature;
}

/**
 * Seeds three funded wallets with API keys, domains and one auction of each type (through the
 * API itself, signing like a wallet), once per data directory. Later runs read DATA_DIR/demo.json.
 */
export async function seedDemo(s: Seeder): Promise<DemoData> {
  const file = join(s.dataDir, 'demo.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as DemoData;

  const keypairs = { alice: Keypair.generate(), bob: Keypair.generate(), carol: Keypair.generate() };
  const wallets = {} as DemoData['wallets'];
  for (const [name, keypair] of Object.entries(keypairs) as [keyof typeof keypairs, Keypair][]) {
    const airdrop = await s.connection.requestAirdrop(keypair.publicKey, 100 * LAMPORTS_PER_SOL);
    const latest = await s.connection.getLatestBlockhash();
    await s.connection.confirmTransaction({ signature: airdrop, ...latest });
    const created = await api<{ key: string }>(s.baseUrl, '/keys/create', {
      name: `demo ${name}`,
      type: name === 'alice' ? 'developer' : 'agent',
      walletAddress: keypair.publicKey.toBase58(),
    });
    wallets[name] = {
      address: keypair.publicKey.toBase58(),
      secretKey: Array.from(keypair.secretKey),
      apiKey: created.key,
    };
  }

  const auctions: DemoData['auctions'] = [];
  for (const { who, ...request } of DEMO_AUCTIONS) {
    for (const domain of request.domainNames) await s.registerDomain(domain, wallets[who].address);
    const created = await api<{ auctionId: string; transaction: string }>(
      s.baseUrl,
      '/auctions/create',
      request,
      wallets[who].apiKey,
    );
    await signAndSend(s.connection, created.transaction, keypairs[who]);
    auctions.push({ type: request.type, auctionId: created.auctionId, domains: [...request.domainNames] });
  }

  // Some bidding history on the English auction.
  const english = auctions[0]!.auctionId;
  for (const [bidder, amount] of [
    ['bob', 1],
    ['carol', 1.2],
    ['bob', 1.5],
  ] as const) {
    const bid = await api<{ transaction: string }>(
      s.baseUrl,
      `/auctions/${english}/bid`,
      { bidAmount: amount },
      wallets[bidder].apiKey,
    );
    await signAndSend(s.connection, bid.transaction, keypairs[bidder]);
  }

  const demo: DemoData = { wallets, auctions };
  await writeFile(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  s.logger.info({ auctions: auctions.length }, 'demo data seeded');
  return demo;
}
