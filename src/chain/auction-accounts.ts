/**
 * Reading the auction program's accounts over RPC: PDA derivation, single fetches and
 * `getProgramAccounts` scans filtered at the pinned byte offsets of the Auction layout.
 */
import { randomBytes } from 'node:crypto';
import { type Commitment, type Connection, type GetProgramAccountsFilter, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { type Address, addressToBytes } from '../core/address.js';
import {
  AUCTION_ACCOUNT_DISCRIMINATOR,
  AUCTION_ACCOUNT_SIZE,
  AUCTION_OFFSETS,
  AUCTION_STATES,
  AUCTION_TYPES,
  type AuctionAccount,
  type AuctionState,
  type AuctionType,
  decodeAuctionAccount,
  isAuctionAccountData,
} from '../core/program/auction-account.js';
import { type ConfigAccount, decodeConfigAccount } from '../core/program/config-account.js';
import { AUCTION_PROGRAM_ID, nonceSeed, SEEDS } from '../core/program/ids.js';

export const AUCTION_PROGRAM = new PublicKey(AUCTION_PROGRAM_ID);

/** An Auction account with the PDA it lives at (the auction id). */
export type AuctionWithAddress = AuctionAccount & { readonly address: Address };

export type KeyLike = PublicKey | Address;

export const toPublicKey = (key: KeyLike): PublicKey => (typeof key === 'string' ? new PublicKey(key) : key);
const toAddress = (key: PublicKey) => key.toBase58() as Address;

export interface ProgramAddress {
  readonly address: Address;
  readonly bump: number;
}

/** The auction PDA ["auction", seller, nonce u64 LE]: the auction id, known before the transaction lands. */
export function findAuctionAddress(seller: KeyLike, nonce: bigint): ProgramAddress {
  const seeds = [SEEDS.auction, addressToBytes(toPublicKey(seller).toBase58()), nonceSeed(nonce)];
  const [key, bump] = PublicKey.findProgramAddressSync(seeds, AUCTION_PROGRAM);
  return { address: toAddress(key), bump };
}

let configAddress: ProgramAddress | undefined;

/** The Config PDA ["config"], derived once: every instruction that names the Config asks for it. */
export function findConfigAddress(): ProgramAddress {
  if (!configAddress) {
    const [key, bump] = PublicKey.findProgramAddressSync([SEEDS.config], AUCTION_PROGRAM);
    configAddress = { address: toAddress(key), bump };
  }
  return configAddress;
}

/** A uniformly random u64 nonce, so auction ids are unpredictable and never collide in practice. */
export function randomAuctionNonce(): bigint {
  return randomBytes(8).readBigUInt64LE(0);
}

/** The auction at `address`, or null when there is no Auction account of this program there. */
export async function fetchAuction(
  connection: Connection,
  address: KeyLike,
  commitment?: Commitment,
): Promise<AuctionWithAddress | null> {
  const key = toPublicKey(address);
  const info = await connection.getAccountInfo(key, commitment);
  if (!info?.owner.equals(AUCTION_PROGRAM) || !isAuctionAccountData(info.data)) return null;
  return { ...decodeAuctionAccount(info.data), address: toAddress(key) };
}

export async function fetchConfig(
  connection: Connection,
  commitment?: Commitment,
): Promise<ConfigAccount | null> {
  const info = await connection.getAccountInfo(new PublicKey(findConfigAddress().address), commitment);
  if (!info?.owner.equals(AUCTION_PROGRAM)) return null;
  return decodeConfigAccount(info.data);
}

export interface AuctionFilter {
  readonly seller?: KeyLike;
  readonly state?: AuctionState;
  readonly auctionType?: AuctionType;
}

const memcmpByte = (offset: number, value: number): GetProgramAccountsFilter => ({
  memcmp: { offset, bytes: bs58.encode(Uint8Array.of(value)) },
});

/** Every Auction account matching `filter`, via getProgramAccounts (dataSize + memcmp filters). */
export async function fetchAuctions(
  connection: Connection,
  filter: AuctionFilter = {},
  commitment?: Commitment,
): Promise<AuctionWithAddress[]> {
  const filters: GetProgramAccountsFilter[] = [
    { dataSize: AUCTION_ACCOUNT_SIZE },
    { memcmp: { offset: 0, bytes: bs58.encode(AUCTION_ACCOUNT_DISCRIMINATOR) } },
  ];
  if (filter.seller)
    filters.push({
      memcmp: { offset: AUCTION_OFFSETS.seller, bytes: toPublicKey(filter.seller).toBase58() },
    });
  if (filter.state) filters.push(memcmpByte(AUCTION_OFFSETS.state, AUCTION_STATES.indexOf(filter.state)));
  if (filter.auctionType)
    filters.push(memcmpByte(AUCTION_OFFSETS.auctionType, AUCTION_TYPES.indexOf(filter.auctionType)));
  const accounts = await connection.getProgramAccounts(AUCTION_PROGRAM, { filters, commitment });
  return accounts.map(({ pubkey, account }) => ({
    ...decodeAuctionAccount(account.data),
    address: toAddress(pubkey),
  }));
}

export function fetchAuctionsBySeller(
  connection: Connection,
  seller: KeyLike,
  commitment?: Commitment,
): Promise<AuctionWithAddress[]> {
  return fetchAuctions(connection, { seller }, commitment);
}
