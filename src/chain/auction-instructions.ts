/**
 * web3.js instructions of the auction program with their exact account lists (the order is the
 * interface: core/program/instructions.ts, docs/program.md).
 */
import { type AccountMeta, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { Address } from '../core/address.js';
import type { AuctionAccount, AuctionType } from '../core/program/auction-account.js';
import {
  type AuctionInstruction,
  encodeAuctionInstruction,
  type ReserveReveal,
} from '../core/program/instructions.js';
import {
  AUCTION_PROGRAM,
  type AuctionWithAddress,
  findAuctionAddress,
  findConfigAddress,
  type KeyLike,
  toPublicKey,
} from './auction-accounts.js';
import { domainNameAccount, NAME_PROGRAM } from './sns.js';

const meta = (key: KeyLike, isWritable: boolean, isSigner = false): AccountMeta => ({
  pubkey: toPublicKey(key),
  isSigner,
  isWritable,
});

function instruction(keys: AccountMeta[], ix: AuctionInstruction): TransactionInstruction {
  return new TransactionInstruction({
    programId: AUCTION_PROGRAM,
    keys,
    data: Buffer.from(encodeAuctionInstruction(ix)),
  });
}

const configMeta = () => meta(findConfigAddress().address, false);
const nameAccountMetas = (a: Pick<AuctionAccount, 'domains'>) =>
  a.domains.map((d) => meta(d.nameAccount, true));

export interface InitializeConfigParams {
  readonly authority: KeyLike;
  readonly keeper: KeyLike;
  readonly treasury: KeyLike;
  readonly feeBps?: number;
  readonly defaultSnipeWindowSeconds?: number;
}

export function initializeConfigInstruction(p: InitializeConfigParams): TransactionInstruction {
  return instruction(
    [
      meta(p.authority, true, true),
      meta(findConfigAddress().address, true),
      meta(SystemProgram.programId, false),
    ],
    {
      name: 'initialize_config',
      args: {
        keeper: toPublicKey(p.keeper).toBase58() as Address,
        treasury: toPublicKey(p.treasury).toBase58() as Address,
        feeBps: p.feeBps ?? 0,
        defaultSnipeWindowSeconds: p.defaultSnipeWindowSeconds ?? 60,
      },
    },
  );
}

export interface CreateAuctionParams {
  readonly seller: KeyLike;
  readonly nonce: bigint;
  readonly auctionType: AuctionType;
  /** "alice.sol", … (1–5); their name accounts are derived here. */
  readonly domainNames: readonly string[];
  readonly durationSeconds: number;
  readonly startingPrice: bigint;
  readonly minIncrement?: bigint;
  readonly buyNowPrice?: bigint;
  readonly dutchFloor?: bigint;
  readonly reserveCommitment?: Uint8Array | null;
  /** Chain Unix seconds; omitted or 0 = start when the transaction executes. */
  readonly startTs?: bigint;
  readonly snipeEnabled?: boolean;
  readonly snipeExtensionSeconds?: number;
}

export function createAuctionInstruction(p: CreateAuctionParams): TransactionInstruction {
  const auction = findAuctionAddress(p.seller, p.nonce).address;
  return instruction(
    [
      meta(p.seller, true, true),
      meta(auction, true),
      configMeta(),
      meta(SystemProgram.programId, false),
      meta(NAME_PROGRAM, false),
      ...p.domainNames.map((name) => meta(domainNameAccount(name), true)),
    ],
    {
      name: 'create_auction',
      args: {
        nonce: p.nonce,
        auctionType: p.auctionType,
        startingPrice: p.startingPrice,
        minIncrement: p.minIncrement ?? 0n,
        buyNowPrice: p.buyNowPrice ?? 0n,
        dutchFloor: p.dutchFloor ?? 0n,
        reserveCommitment: p.reserveCommitment ?? null,
        startTs: p.startTs ?? 0n,
        durationSeconds: p.durationSeconds,
        snipeEnabled: p.snipeEnabled ?? false,
        snipeExtensionSeconds: p.snipeExtensionSeconds ?? 0,
        domainNames: p.domainNames,
      },
    },
  );
}

export interface PlaceBidParams {
  readonly bidder: KeyLike;
  /** The auction as last read: its top bidder (refunded) and domains (for dutch/buy_now) go in the account list. */
  readonly auction: AuctionWithAddress;
  /** Lamports; for dutch the most the bidder will pay. */
  readonly amount: bigint;
  /** Config.treasury. */
  readonly treasury: KeyLike;
}

export function placeBidInstruction(p: PlaceBidParams): TransactionInstruction {
  const a = p.auction;
  return instruction(
    [
      meta(p.bidder, true, true),
      meta(a.address, true),
      meta(a.topBidder ?? p.bidder, true),
      meta(a.seller, true),
      meta(p.treasury, true),
      configMeta(),
      meta(SystemProgram.programId, false),
      meta(NAME_PROGRAM, false),
      ...nameAccountMetas(a),
    ],
    { name: 'place_bid', args: { amount: p.amount } },
  );
}

export interface SettleParams {
  readonly keeper: KeyLike;
  readonly auction: AuctionWithAddress;
  /** Config.treasury. */
  readonly treasury: KeyLike;
  /** Required for reserve auctions with bids. */
  readonly reveal?: ReserveReveal | null;
}

export function settleInstruction(p: SettleParams): TransactionInstruction {
  const a = p.auction;
  return instruction(
    [
      meta(p.keeper, false, true),
      meta(a.address, true),
      meta(a.seller, true),
      meta(a.topBidder ?? a.seller, true),
      meta(p.treasury, true),
      configMeta(),
      meta(NAME_PROGRAM, false),
      ...nameAccountMetas(a),
    ],
    { name: 'settle', args: { reveal: p.reveal ?? null } },
  );
}

export interface CancelParams {
  readonly auction: AuctionWithAddress;
}

/** Signed by the auction's seller. */
export function cancelInstruction(p: CancelParams): TransactionInstruction {
  const a = p.auction;
  return instruction(
    [meta(a.seller, true, true), meta(a.address, true), meta(NAME_PROGRAM, false), ...nameAccountMetas(a)],
    {
      name: 'cancel',
      args: {},
    },
  );
}
