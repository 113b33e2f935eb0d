import { type Address, addressFromBytes, addressToBytes, isZeroAddressBytes } from '../address.js';
import { BorshError, BorshReader, BorshWriter } from '../codec/borsh.js';
import { accountDiscriminator, hasDiscriminator } from './discriminator.js';

export const AUCTION_TYPES = ['standard', 'dutch', 'reserve', 'buy_now'] as const;
export type AuctionType = (typeof AUCTION_TYPES)[number];

/** On-chain lifecycle. "upcoming/active/ended" are derived from chain time (core/auction-status). */
export const AUCTION_STATES = ['active', 'settled', 'cancelled'] as const;
export type AuctionState = (typeof AUCTION_STATES)[number];

export const RESERVE_OUTCOMES = ['unknown', 'met', 'not_met'] as const;
export type ReserveOutcome = (typeof RESERVE_OUTCOMES)[number];

export const MAX_DOMAINS_PER_AUCTION = 5;
export const MAX_DOMAIN_NAME_BYTES = 63;

export interface EscrowedDomain {
  /** SNS name account (its owner is the auction PDA while escrowed). */
  readonly nameAccount: Address;
  /** Full name, e.g. "alice.sol". */
  readonly name: string;
}

/** The `Auction` account. Amounts are lamports, times are chain Unix seconds. */
export interface AuctionAccount {
  readonly version: number;
  readonly bump: number;
  readonly auctionType: AuctionType;
  readonly state: AuctionState;
  readonly seller: Address;
  readonly nonce: bigint;
  readonly startingPrice: bigint;
  readonly minIncrement: bigint;
  /** buy_now: the fixed price; 0 otherwise. */
  readonly buyNowPrice: bigint;
  /** dutch: the floor price; 0 otherwise. */
  readonly dutchFloor: bigint;
  /** reserve: sha256(reserve_lamports_u64_le ‖ salt32); null when the auction has no reserve. */
  readonly reserveCommitment: Uint8Array | null;
  readonly startTs: bigint;
  readonly endTs: bigint;
  readonly snipeEnabled: boolean;
  readonly snipeWindowSeconds: number;
  readonly snipeExtensionSeconds: number;
  readonly topBidder: Address | null;
  readonly topBid: bigint;
  readonly bidCount: number;
  readonly winner: Address | null;
  readonly finalPrice: bigint;
  readonly reserveOutcome: ReserveOutcome;
  readonly createdAt: bigint;
  readonly settledAt: bigint;
  readonly domains: readonly EscrowedDomain[];
}

export const AUCTION_ACCOUNT_DISCRIMINATOR = accountDiscriminator('Auction');
export const AUCTION_ACCOUNT_VERSION = 1;
/** Fixed allocation so every auction has the same size (a `dataSize` filter selects them). */
export const AUCTION_ACCOUNT_SIZE = 768;

/** Byte offsets for `getProgramAccounts` memcmp filters. Pinned by tests against the encoder. */
export const AUCTION_OFFSETS = {
  auctionType: 10,
  state: 11,
  seller: 12,
} as const;

const ZERO32 = new Uint8Array(32);
const optionalAddressBytes = (a: Address | null) => (a ? addressToBytes(a) : ZERO32);
const optionalAddress = (bytes: Uint8Array) => (isZeroAddressBytes(bytes) ? null : addressFromBytes(bytes));

function indexOf<T>(values: readonly T[], value: T, what: string): number {
  const i = values.indexOf(value);
  if (i < 0) throw new BorshError(`unknown ${what}: ${String(value)}`);
  return i;
}

function at<T>(values: readonly T[], i: number, what: string): T {
  const v = values[i];
  if (v === undefined) throw new BorshError(`invalid ${what} tag ${i}`);
  return v;
}

export function encodeAuctionAccount(a: AuctionAccount): Uint8Array {
  const w = new BorshWriter(AUCTION_ACCOUNT_SIZE)
    .fixed(AUCTION_ACCOUNT_DISCRIMINATOR)
    .u8(a.version)
    .u8(a.bump)
    .u8(indexOf(AUCTION_TYPES, a.auctionType, 'auction type'))
    .u8(indexOf(AUCTION_STATES, a.state, 'auction state'))
    .fixed(addressToBytes(a.seller))
    .u64(a.nonce)
    .u64(a.startingPrice)
    .u64(a.minIncrement)
    .u64(a.buyNowPrice)
    .u64(a.dutchFloor)
    .bool(a.reserveCommitment !== null)
    .fixed(a.reserveCommitment ?? ZERO32, 32)
    .i64(a.startTs)
    .i64(a.endTs)
    .bool(a.snipeEnabled)
    .u32(a.snipeWindowSeconds)
    .u32(a.snipeExtensionSeconds)
    .fixed(optionalAddressBytes(a.topBidder))
    .u64(a.topBid)
    .u32(a.bidCount)
    .fixed(optionalAddressBytes(a.winner))
    .u64(a.finalPrice)
    .u8(indexOf(RESERVE_OUTCOMES, a.reserveOutcome, 'reserve outcome'))
    .i64(a.createdAt)
    .i64(a.settledAt)
    .vec(a.domains, (w, d) => w.fixed(addressToBytes(d.nameAccount)).string(d.name));
  return w.padTo(AUCTION_ACCOUNT_SIZE).toBytes();
}

export function isAuctionAccountData(data: Uint8Array): boolean {
  return hasDiscriminator(data, AUCTION_ACCOUNT_DISCRIMINATOR);
}

/** Decodes an Auction account; throws BorshError on anything that is not one. */
export function decodeAuctionAccount(data: Uint8Array): AuctionAccount {
  if (!isAuctionAccountData(data)) throw new BorshError('not an Auction account (discriminator mismatch)');
  const r = new BorshReader(data);
  r.fixed(8);
  const version = r.u8();
  const bump = r.u8();
  const auctionType = at(AUCTION_TYPES, r.u8(), 'auction type');
  const state = at(AUCTION_STATES, r.u8(), 'auction state');
  const seller = addressFromBytes(r.fixed(32));
  const nonce = r.u64();
  const startingPrice = r.u64();
  const minIncrement = r.u64();
  const buyNowPrice = r.u64();
  const dutchFloor = r.u64();
  const hasReserve = r.bool();
  const commitment = r.fixed(32);
  const startTs = r.i64();
  const endTs = r.i64();
  const snipeEnabled = r.bool();
  const snipeWindowSeconds = r.u32();
  const snipeExtensionSeconds = r.u32();
  const topBidder = optionalAddress(r.fixed(32));
  const topBid = r.u64();
  const bidCount = r.u32();
  const winner = optionalAddress(r.fixed(32));
  const finalPrice = r.u64();
  const reserveOutcome = at(RESERVE_OUTCOMES, r.u8(), 'reserve outcome');
  const createdAt = r.i64();
  const settledAt = r.i64();
  const domains = r.vec(
    (r) => ({ nameAccount: addressFromBytes(r.fixed(32)), name: r.string(MAX_DOMAIN_NAME_BYTES) }),
    MAX_DOMAINS_PER_AUCTION,
  );
  return {
    version,
    bump,
    auctionType,
    state,
    seller,
    nonce,
    startingPrice,
    minIncrement,
    buyNowPrice,
    dutchFloor,
    reserveCommitment: hasReserve ? commitment : null,
    startTs,
    endTs,
    snipeEnabled,
    snipeWindowSeconds,
    snipeExtensionSeconds,
    topBidder,
    topBid,
    bidCount,
    winner,
    finalPrice,
    reserveOutcome,
    createdAt,
    settledAt,
    domains,
  };
}
