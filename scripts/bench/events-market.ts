/**
 * The chain side of bench:events: funded sellers and bidders, auctions whose domains fall into the
 * analytics collections (3/4/5-digit, 3/4-letter names) plus a few without one, buy-now auctions
 * bought at once (sales for the analytics), and the bids themselves: each outbids the auction's
 * current top bidder, signed by a wallet, sent with preflight through `sendRawTransaction`, and
 * confirmed by polling `getSignatureStatuses` as a wallet does.
 */
import {
  type Connection,
  Keypair,
  type PublicKey,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js';
import {
  type AuctionWithAddress,
  fetchAuction,
  findAuctionAddress,
  randomAuctionNonce,
} from '../../src/chain/auction-accounts.js';
import { createAuctionInstruction, placeBidInstruction } from '../../src/chain/auction-instructions.js';
import type { Address } from '../../src/core/address.js';
import { fund } from './live-auctions.js';
import { rpcCall } from './localnet-process.js';
import { mapConcurrent } from './measure.js';

export const SOL = 1_000_000_000n;
const now = () => performance.timeOrigin + performance.now();

export interface Market {
  readonly connection: Connection;
  readonly rpcUrl: string;
  readonly treasury: PublicKey | Address;
  readonly bidders: readonly Keypair[];
  /** Live standard auctions, with the state the next bid must beat (kept up to date locally). */
  readonly auctions: AuctionWithAddress[];
  /** Domains sold through buy-now. */
  readonly sold: readonly string[];
  /** Signature of the last setup transaction. */
  readonly lastSignature: string;
}

export interface SentBid {
  readonly signature: string;
  /** Unix ms (sub-ms) before sending and when the status first read confirmed. */
  readonly sentAt: number;
  readonly confirmedAt: number;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const letters = (n: number, width: number) =>
  Array.from({ length: width }, (_, i) => LETTERS[Math.floor(n / 26 ** (width - 1 - i)) % 26]).join('');

/** Labels spread over the collections, unique per index; one in five belongs to none. */
function label(i: number): string {
  switch (i % 5) {
    case 0:
      return String(i).padStart(4, '0');
    case 1:
      return String(i).padStart(5, '0');
    case 2:
      return letters(i, 4);
    case 3:
      return letters(i + 7, 3);
    default:
      return `bench-${i}`;
  }
}

export async function setUpMarket(input: {
  readonly connection: Connection;
  readonly rpcUrl: string;
  readonly auctions: number;
  readonly sales: number;
  readonly bidders: number;
}): Promise<Market> {
  const { connection, rpcUrl } = input;
  const { treasury } = await rpcCall<{ treasury: Address }>(rpcUrl, 'localnet_getKeeper', []);
  const sellers = Array.from({ length: 10 }, () => Keypair.generate());
  const bidders = Array.from({ length: input.bidders }, () => Keypair.generate());
  await fund(
    connection,
    [...sellers, ...bidders].map((k) => k.publicKey),
    1_000n,
  );
  let lastSignature = '';
  const create = async (name: string, seller: Keypair, buyNow: boolean) => {
    await rpcCall(rpcUrl, 'localnet_registerDomain', [name, seller.publicKey.toBase58()]);
    const nonce = randomAuctionNonce();
    const ix = createAuctionInstruction({
      seller: seller.publicKey,
      nonce,
      auctionType: buyNow ? 'buy_now' : 'standard',
      domainNames: [name],
      durationSeconds: 7 * 86_400,
      startingPrice: SOL / 10n,
      minIncrement: SOL / 100n,
      ...(buyNow ? { buyNowPrice: SOL + (randomAuctionNonce() % SOL) } : {}),
    });
    lastSignature = await sendAndConfirmTransaction(connection, new Transaction().add(ix), [seller], {
      commitment: 'confirmed',
    });
    const auction = await fetchAuction(connection, findAuctionAddress(seller.publicKey, nonce).address);
    if (!auction) throw new Error(`auction of ${name} was not created`);
    return auction;
  };
  const auctions = await mapConcurrent(
    Array.from({ length: input.auctions }, (_, i) => i),
    8,
    (i) => create(`${label(i)}.sol`, sellers[i % sellers.length]!, false),
  );
  const sold: string[] = [];
  await mapConcurrent(
    Array.from({ length: input.sales }, (_, i) => i),
    8,
    async (i) => {
      // 3-digit names: no standard auction uses one, so the names never collide.
      const name = `${String(i).padStart(3, '0')}.sol`;
      const auction = await create(name, sellers[i % sellers.length]!, true);
      const buyer = bidders[i % bidders.length]!;
      const ix = placeBidInstruction({
        bidder: buyer.publicKey,
        auction,
        amount: auction.buyNowPrice,
        treasury,
      });
      lastSignature = await sendAndConfirmTransaction(connection, new Transaction().add(ix), [buyer], {
        commitment: 'confirmed',
      });
      sold.push(name);
    },
  );
  return { connection, rpcUrl, treasury, bidders, auctions, sold, lastSignature };
}

/**
 * The next bid on auction `i`: the minimum that outbids it, by a bidder other than the current
 * top one. Updates the local state as if it landed (callers send bids of one auction in order).
 */
export function nextBid(market: Market, i: number, blockhash: string): Buffer {
  const auction = market.auctions[i]!;
  const amount = auction.bidCount === 0 ? auction.startingPrice : auction.topBid + auction.minIncrement;
  const top = auction.topBidder;
  let bidder = market.bidders[(auction.bidCount + i) % market.bidders.length]!;
  if (top !== null && bidder.publicKey.toBase58() === top)
    bidder = market.bidders[(auction.bidCount + i + 1) % market.bidders.length]!;
  const tx = new Transaction({ feePayer: bidder.publicKey, recentBlockhash: blockhash }).add(
    placeBidInstruction({ bidder: bidder.publicKey, auction, amount, treasury: market.treasury }),
  );
  tx.sign(bidder);
  market.auctions[i] = {
    ...auction,
    topBid: amount,
    topBidder: bidder.publicKey.toBase58() as Address,
    bidCount: auction.bidCount + 1,
  };
  return tx.serialize();
}

/** Sends one signed transaction with preflight and polls its status until it reads confirmed. */
export async function sendAndTime(connection: Connection, raw: Buffer): Promise<SentBid> {
  const sentAt = now();
  const signature = await connection.sendRawTransaction(raw, { skipPreflight: false, maxRetries: 0 });
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const status = value[0];
    if (status?.err) throw new Error(`bid ${signature} failed: ${JSON.stringify(status.err)}`);
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized')
      return { signature, sentAt, confirmedAt: now() };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
