/** Auction lifecycle steps for program tests: every step is a signed transaction over the wire. */
import { type Keypair, PublicKey } from '@solana/web3.js';
import { expect } from 'vitest';
import {
  type AuctionWithAddress,
  type CreateAuctionParams,
  cancelInstruction,
  createAuctionInstruction,
  fetchAuction,
  fetchTransactionEvents,
  findAuctionAddress,
  placeBidInstruction,
  randomAuctionNonce,
  settleInstruction,
} from '../../src/chain/auction-client.js';
import { readDomainOwner } from '../../src/chain/sns.js';
import type { Address } from '../../src/core/address.js';
import type { AuctionEvent } from '../../src/core/program/events.js';
import type { ReserveReveal } from '../../src/core/program/instructions.js';
import { SOL, type TestLocalnet } from './localnet.js';

export type AuctionOptions = Partial<Omit<CreateAuctionParams, 'seller' | 'nonce' | 'domainNames'>> & {
  readonly domainCount?: number;
};

export interface CreatedAuction {
  readonly auction: AuctionWithAddress;
  readonly address: PublicKey;
  readonly seller: Keypair;
  readonly domainNames: string[];
  readonly signature: string;
}

/** A funded seller lists freshly registered domains (standard, 1 SOL start, 0.1 SOL increment, 1 h by default). */
export async function createAuction(
  t: TestLocalnet,
  options: AuctionOptions = {},
  seller?: Keypair,
): Promise<CreatedAuction> {
  const owner = seller ?? (await t.fundedKeypair());
  const domainNames = await t.registerDomains(owner.publicKey, options.domainCount ?? 1);
  const nonce = randomAuctionNonce();
  const { domainCount: _, ...params } = options;
  const ix = createAuctionInstruction({
    auctionType: 'standard',
    startingPrice: SOL,
    minIncrement: SOL / 10n,
    durationSeconds: 3_600,
    ...params,
    seller: owner.publicKey,
    nonce,
    domainNames,
  });
  const signature = await t.send([ix], [owner]);
  const address = new PublicKey(findAuctionAddress(owner.publicKey, nonce).address);
  return { auction: await readAuction(t, address), address, seller: owner, domainNames, signature };
}

export async function readAuction(
  t: TestLocalnet,
  address: PublicKey | Address,
): Promise<AuctionWithAddress> {
  const auction = await fetchAuction(t.connection, address);
  if (!auction) throw new Error(`no auction at ${address.toString()}`);
  return auction;
}

/** Reads the auction, then bids `amount` with `bidder`'s signature; returns the signature. */
export async function bid(
  t: TestLocalnet,
  bidder: Keypair,
  address: PublicKey,
  amount: bigint,
): Promise<string> {
  return t.send([await bidInstruction(t, bidder, address, amount)], [bidder]);
}

export async function bidInstruction(t: TestLocalnet, bidder: Keypair, address: PublicKey, amount: bigint) {
  return placeBidInstruction({
    bidder: bidder.publicKey,
    auction: await readAuction(t, address),
    amount,
    treasury: t.treasury,
  });
}

export async function settle(
  t: TestLocalnet,
  address: PublicKey,
  options: { keeper?: Keypair; reveal?: ReserveReveal } = {},
): Promise<string> {
  const keeper = options.keeper ?? t.keeper;
  const ix = settleInstruction({
    keeper: keeper.publicKey,
    auction: await readAuction(t, address),
    treasury: t.treasury,
    reveal: options.reveal ?? null,
  });
  return t.send([ix], [keeper]);
}

export async function cancel(t: TestLocalnet, seller: Keypair, address: PublicKey): Promise<string> {
  return t.send([cancelInstruction({ auction: await readAuction(t, address) })], [seller]);
}

/** The program's events of a landed transaction, read back with `getTransaction`. */
export async function eventsOf(t: TestLocalnet, signature: string): Promise<AuctionEvent[]> {
  const result = await fetchTransactionEvents(t.connection, signature);
  expect(result?.err).toBeNull();
  return result!.events.map((e) => e.event);
}

export async function expectDomainOwners(
  t: TestLocalnet,
  names: readonly string[],
  owner: PublicKey,
): Promise<void> {
  for (const name of names) expect(await readDomainOwner(t.connection, name)).toBe(owner.toBase58());
}
