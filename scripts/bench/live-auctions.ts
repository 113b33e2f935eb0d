/**
 * Real auctions on the localnet for the routes that read the chain (GET /auctions/:id, the bid
 * route): registered domains, created by their sellers through the program, each with a bid
 * amount the bid route accepts, plus funded bidder wallets. They are indexed like the indexer
 * would, with a bid history, so the detail view has something to join.
 */
import { createHash } from 'node:crypto';
import {
  type Connection,
  Keypair,
  type PublicKey,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js';
import { fetchAuction, findAuctionAddress, randomAuctionNonce } from '../../src/chain/auction-accounts.js';
import { createAuctionInstruction } from '../../src/chain/auction-instructions.js';
import type { Address } from '../../src/core/address.js';
import type { AuctionType } from '../../src/core/program/auction-account.js';
import type { AuctionIndex } from '../../src/indexer/auction-index.js';
import { rpcCall } from './localnet-process.js';
import { mapConcurrent } from './measure.js';

const SOL = 1_000_000_000n;

export interface LiveAuction {
  readonly address: Address;
  readonly type: AuctionType;
  /** SOL: a bid the route accepts (at least the minimum; for dutch the most the bidder pays). */
  readonly bidAmount: number;
}

const PRICES: Record<AuctionType, { startingPrice: bigint; buyNowPrice?: bigint; dutchFloor?: bigint }> = {
  standard: { startingPrice: SOL },
  reserve: { startingPrice: SOL },
  dutch: { startingPrice: 10n * SOL, dutchFloor: SOL },
  buy_now: { startingPrice: SOL, buyNowPrice: 5n * SOL },
};
const BID_AMOUNT: Record<AuctionType, number> = { standard: 2, reserve: 2, dutch: 10, buy_now: 5 };

/** Airdrops `sol` SOL to each of `keys` and waits for every airdrop to confirm. */
export async function fund(connection: Connection, keys: readonly PublicKey[], sol: bigint): Promise<void> {
  const signatures = await mapConcurrent(keys, 16, (k) => connection.requestAirdrop(k, Number(sol * SOL)));
  await mapConcurrent(signatures, 16, (s) => connection.confirmTransaction(s, 'confirmed'));
}

/** Creates `perType` auctions of each type (live for a day) and funds `bidderCount` bidders. */
export async function createLiveAuctions(input: {
  readonly connection: Connection;
  readonly rpcUrl: string;
  readonly index: AuctionIndex;
  readonly perType: number;
  readonly bidderCount: number;
}): Promise<{ auctions: LiveAuction[]; bidders: Address[] }> {
  const { connection, rpcUrl, index } = input;
  const sellers = [Keypair.generate(), Keypair.generate()];
  const bidders = Array.from({ length: input.bidderCount }, () => Keypair.generate());
  await fund(
    connection,
    sellers.map((s) => s.publicKey),
    10n,
  );
  await fund(
    connection,
    bidders.map((b) => b.publicKey),
    1_000n,
  );

  const types = (Object.keys(PRICES) as AuctionType[]).flatMap((type) =>
    Array.from({ length: input.perType }, (_, i) => ({ type, i })),
  );
  const auctions = await mapConcurrent(types, 8, async ({ type, i }, n) => {
    const seller = sellers[n % sellers.length]!;
    const name = `bench-live-${type.replace('_', '')}-${i}-${randomAuctionNonce() % 100_000n}.sol`;
    await rpcCall(rpcUrl, 'localnet_registerDomain', [name, seller.publicKey.toBase58()]);
    const nonce = randomAuctionNonce();
    const ix = createAuctionInstruction({
      seller: seller.publicKey,
      nonce,
      auctionType: type,
      domainNames: [name],
      durationSeconds: 86_400,
      minIncrement: SOL / 10n,
      reserveCommitment: type === 'reserve' ? createHash('sha256').update(name).digest() : null,
      ...PRICES[type],
    });
    await sendAndConfirmTransaction(connection, new Transaction().add(ix), [seller], {
      commitment: 'confirmed',
    });
    const address = findAuctionAddress(seller.publicKey, nonce).address;
    const account = await fetchAuction(connection, address, 'confirmed');
    if (!account) throw new Error(`auction ${address} was not created`);
    await index.upsertFromAccount(address, account, await connection.getSlot('confirmed'));
    await index.appendBids(
      address,
      Array.from({ length: 8 }, (_, s) => ({
        bidder: bidders[s % bidders.length]!.publicKey.toBase58() as Address,
        amount: SOL + BigInt(s) * (SOL / 10n),
        timestamp: Number(account.startTs) * 1000 + s * 1000,
        transactionId: `bench-${address.slice(0, 8)}-${s}`,
        eventIndex: 0,
        sequence: s + 1,
      })),
    );
    return { address, type, bidAmount: BID_AMOUNT[type] };
  });
  return { auctions, bidders: bidders.map((b) => b.publicKey.toBase58() as Address) };
}
