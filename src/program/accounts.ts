/**
 * Account checks, the hand-written equivalent of Anchor's `#[derive(Accounts)]` constraints.
 * Every instruction names its accounts by position (see core/program/instructions.ts) and runs
 * these checks before it reads or moves anything.
 */
import type { Address } from '../core/address.js';
import { BorshError } from '../core/codec/borsh.js';
import {
  type AuctionAccount,
  decodeAuctionAccount,
  encodeAuctionAccount,
} from '../core/program/auction-account.js';
import { type ConfigAccount, decodeConfigAccount } from '../core/program/config-account.js';
import { SEEDS } from '../core/program/ids.js';
import {
  type InstructionAccount,
  type InvokeContext,
  ProgramError,
} from '../localnet/runtime/program-abi.js';
import { auctionError } from './errors.js';

export function accountAt(ctx: InvokeContext, index: number, name: string): InstructionAccount {
  const account = ctx.accounts[index];
  if (!account) throw new ProgramError('NotEnoughAccountKeys', `missing account #${index} (${name})`);
  return account;
}

/** The accounts from `start` on (name accounts trail every list that carries domains). */
export function accountsFrom(
  ctx: InvokeContext,
  start: number,
  count: number,
  name: string,
): InstructionAccount[] {
  if (ctx.accounts.length < start + count) {
    throw new ProgramError('NotEnoughAccountKeys', `expected ${count} ${name} account(s) from #${start}`);
  }
  return ctx.accounts.slice(start, start + count);
}

export function requireSigner(account: InstructionAccount, name: string): void {
  if (!account.isSigner) throw new ProgramError('MissingRequiredSignature', `${name} must sign`);
}

export function requireWritable(account: InstructionAccount, name: string): void {
  if (!account.isWritable) throw new ProgramError('InvalidArgument', `${name} must be writable`);
}

export function requireProgram(account: InstructionAccount, programId: Address, name: string): void {
  if (account.key !== programId) throw new ProgramError('IncorrectProgramId', `${name} must be ${programId}`);
}

/** An account the auction state names (seller, top bidder, treasury, name account): keys must match. */
export function requireKey(account: InstructionAccount, expected: Address, name: string): void {
  if (account.key !== expected) throw auctionError('AccountMismatch', `${name} must be ${expected}`);
}

/** The Config PDA ["config"] (a constant in a compiled program; the runtime caches derivations). */
function configAddress(ctx: InvokeContext): Address {
  return ctx.syscalls.findProgramAddress([SEEDS.config], ctx.programId)[0];
}

function requireOwnedBy(account: InstructionAccount, owner: Address, name: string): void {
  if (account.owner !== owner)
    throw new ProgramError('InvalidAccountOwner', `${name} must be owned by ${owner}`);
}

/** Anchor's `Account<'info, Config>` with `seeds = [b"config"]`. */
export function loadConfig(ctx: InvokeContext, account: InstructionAccount): ConfigAccount {
  const expected = configAddress(ctx);
  if (account.key !== expected)
    throw new ProgramError('InvalidSeeds', `config must be the PDA ["config"] ${expected}`);
  requireOwnedBy(account, ctx.programId, 'config');
  return decodeOrInvalid(() => decodeConfigAccount(account.data), 'config');
}

/**
 * Anchor's `Account<'info, Auction>`: owned by this program and carrying the Auction discriminator.
 * Only this program writes such data, so the owner check proves the PDA without re-deriving it.
 */
export function loadAuction(ctx: InvokeContext, account: InstructionAccount): AuctionAccount {
  requireWritable(account, 'auction');
  requireOwnedBy(account, ctx.programId, 'auction');
  return decodeOrInvalid(() => decodeAuctionAccount(account.data), 'auction');
}

export function storeAuction(account: InstructionAccount, auction: AuctionAccount): void {
  account.data = encodeAuctionAccount(auction);
}

function decodeOrInvalid<T>(decode: () => T, name: string): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof BorshError)
      throw new ProgramError('InvalidAccountData', `${name}: ${error.message}`);
    throw error;
  }
}
