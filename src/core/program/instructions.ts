import { type Address, addressFromBytes, addressToBytes } from '../address.js';
import { BorshError, BorshReader, BorshWriter } from '../codec/borsh.js';
import {
  AUCTION_TYPES,
  type AuctionType,
  MAX_DOMAIN_NAME_BYTES,
  MAX_DOMAINS_PER_AUCTION,
} from './auction-account.js';
import { hasDiscriminator, instructionDiscriminator } from './discriminator.js';

/**
 * Instruction data of the auction program: 8-byte discriminator sha256("global:<name>")[0..8] + Borsh args.
 * Account lists are documented on each type and in docs/program.md; the chain client builds them.
 */

/** Accounts: [authority (signer, writable), config PDA (writable), system program]. */
export interface InitializeConfigArgs {
  readonly keeper: Address;
  readonly treasury: Address;
  readonly feeBps: number;
  readonly defaultSnipeWindowSeconds: number;
}

/**
 * Accounts: [seller (signer, writable), auction PDA (writable), config PDA, system program,
 * name program, ...one SNS name account per domain (writable), in `domainNames` order].
 */
export interface CreateAuctionArgs {
  readonly nonce: bigint;
  readonly auctionType: AuctionType;
  readonly startingPrice: bigint;
  readonly minIncrement: bigint;
  /** buy_now only, else 0. */
  readonly buyNowPrice: bigint;
  /** dutch only, else 0. */
  readonly dutchFloor: bigint;
  /** reserve only: sha256(reserve u64 LE ‖ salt32). */
  readonly reserveCommitment: Uint8Array | null;
  /** Unix seconds; 0 = start now (chain time). */
  readonly startTs: bigint;
  readonly durationSeconds: number;
  readonly snipeEnabled: boolean;
  readonly snipeExtensionSeconds: number;
  readonly domainNames: readonly string[];
}

/**
 * Accounts: [bidder (signer, writable), auction PDA (writable), previous top bidder (writable; the
 * bidder itself when there is none), seller (writable), treasury (writable), config PDA, system program,
 * name program, ...the auction's name accounts (writable), in the auction's domain order].
 */
export interface PlaceBidArgs {
  /** standard/reserve: the bid; dutch: the most the buyer will pay; buy_now: at least the buy-now price. */
  readonly amount: bigint;
}

/** Revealed hidden reserve, checked against the commitment. */
export interface ReserveReveal {
  readonly reserve: bigint;
  readonly salt: Uint8Array;
}

/**
 * Accounts: [keeper (signer), auction PDA (writable), seller (writable), top bidder (writable; the
 * seller when there is none), treasury (writable), config PDA, name program, ...name accounts (writable)].
 */
export interface SettleArgs {
  readonly reveal: ReserveReveal | null;
}

/** Accounts: [seller (signer, writable), auction PDA (writable), name program, ...name accounts (writable)]. */
export type CancelArgs = Record<string, never>;

export type AuctionInstruction =
  | { readonly name: 'initialize_config'; readonly args: InitializeConfigArgs }
  | { readonly name: 'create_auction'; readonly args: CreateAuctionArgs }
  | { readonly name: 'place_bid'; readonly args: PlaceBidArgs }
  | { readonly name: 'settle'; readonly args: SettleArgs }
  | { readonly name: 'cancel'; readonly args: CancelArgs };

export type AuctionInstructionName = AuctionInstruction['name'];

export const INSTRUCTION_DISCRIMINATORS: Record<AuctionInstructionName, Uint8Array> = {
  initialize_config: instructionDiscriminator('initialize_config'),
  create_auction: instructionDiscriminator('create_auction'),
  place_bid: instructionDiscriminator('place_bid'),
  settle: instructionDiscriminator('settle'),
  cancel: instructionDiscriminator('cancel'),
};

export function encodeAuctionInstruction(ix: AuctionInstruction): Uint8Array {
  const w = new BorshWriter(128).fixed(INSTRUCTION_DISCRIMINATORS[ix.name]);
  switch (ix.name) {
    case 'initialize_config':
      w.fixed(addressToBytes(ix.args.keeper))
        .fixed(addressToBytes(ix.args.treasury))
        .u16(ix.args.feeBps)
        .u32(ix.args.defaultSnipeWindowSeconds);
      break;
    case 'create_auction': {
      const a = ix.args;
      w.u64(a.nonce)
        .u8(AUCTION_TYPES.indexOf(a.auctionType))
        .u64(a.startingPrice)
        .u64(a.minIncrement)
        .u64(a.buyNowPrice)
        .u64(a.dutchFloor)
        .option(a.reserveCommitment, (w, c) => w.fixed(c, 32))
        .i64(a.startTs)
        .u32(a.durationSeconds)
        .bool(a.snipeEnabled)
        .u32(a.snipeExtensionSeconds)
        .vec(a.domainNames, (w, n) => w.string(n));
      break;
    }
    case 'place_bid':
      w.u64(ix.args.amount);
      break;
    case 'settle':
      w.option(ix.args.reveal, (w, r) => w.u64(r.reserve).fixed(r.salt, 32));
      break;
    case 'cancel':
      break;
  }
  return w.toBytes();
}

/** Decodes instruction data; throws BorshError on unknown discriminators, bad tags or trailing bytes. */
export function decodeAuctionInstruction(data: Uint8Array): AuctionInstruction {
  const name = (Object.keys(INSTRUCTION_DISCRIMINATORS) as AuctionInstructionName[]).find((n) =>
    hasDiscriminator(data, INSTRUCTION_DISCRIMINATORS[n]),
  );
  if (!name) throw new BorshError('unknown instruction discriminator');
  const r = new BorshReader(data);
  r.fixed(8);
  const ix = decodeArgs(name, r);
  r.expectEnd();
  return ix;
}

function decodeArgs(name: AuctionInstructionName, r: BorshReader): AuctionInstruction {
  switch (name) {
    case 'initialize_config':
      return {
        name,
        args: {
          keeper: addressFromBytes(r.fixed(32)),
          treasury: addressFromBytes(r.fixed(32)),
          feeBps: r.u16(),
          defaultSnipeWindowSeconds: r.u32(),
        },
      };
    case 'create_auction': {
      const nonce = r.u64();
      const typeTag = r.u8();
      const auctionType = AUCTION_TYPES[typeTag];
      if (!auctionType) throw new BorshError(`invalid auction type tag ${typeTag}`);
      return {
        name,
        args: {
          nonce,
          auctionType,
          startingPrice: r.u64(),
          minIncrement: r.u64(),
          buyNowPrice: r.u64(),
          dutchFloor: r.u64(),
          reserveCommitment: r.option((r) => r.fixed(32)),
          startTs: r.i64(),
          durationSeconds: r.u32(),
          snipeEnabled: r.bool(),
          snipeExtensionSeconds: r.u32(),
          // Read at most one more than allowed so the program, not the decoder, reports the count rule.
          domainNames: r.vec((r) => r.string(MAX_DOMAIN_NAME_BYTES * 4), MAX_DOMAINS_PER_AUCTION + 1),
        },
      };
    }
    case 'place_bid':
      return { name, args: { amount: r.u64() } };
    case 'settle':
      return { name, args: { reveal: r.option((r) => ({ reserve: r.u64(), salt: r.fixed(32) })) } };
    case 'cancel':
      return { name, args: {} };
  }
}
