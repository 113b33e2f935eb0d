/**
 * The auction PDA is the escrow: it owns the listed domains (as their SNS owner) and holds the top
 * bid in lamports on top of its rent-exempt minimum, which it keeps forever so settled auctions stay
 * readable. Lamports leave it by direct debit (it is owned by this program), never by CPI.
 */
import { type Address, addressToBytes } from '../core/address.js';
import { feeSplit } from '../core/auction-rules/index.js';
import type { AuctionAccount } from '../core/program/auction-account.js';
import { nonceSeed, SEEDS } from '../core/program/ids.js';
import {
  type InstructionAccount,
  type InvokeContext,
  ProgramError,
} from '../localnet/runtime/program-abi.js';
import { requireKey, requireWritable } from './accounts.js';
import { transferNameOwnership } from './cpi.js';
import { auctionError } from './errors.js';

/** `invoke_signed` seeds of the auction PDA: ["auction", seller, nonce u64 LE, bump]. */
export function auctionSignerSeeds(a: Pick<AuctionAccount, 'seller' | 'nonce' | 'bump'>): Uint8Array[] {
  return [SEEDS.auction, addressToBytes(a.seller), nonceSeed(a.nonce), Uint8Array.of(a.bump)];
}

/** The trailing name accounts must be the auction's, in its domain order. */
export function requireEscrowedNameAccounts(
  a: AuctionAccount,
  nameAccounts: readonly InstructionAccount[],
): void {
  a.domains.forEach((domain, i) => {
    const account = nameAccounts[i]!;
    requireKey(account, domain.nameAccount, `name account of ${domain.name}`);
    requireWritable(account, `name account of ${domain.name}`);
  });
}

/** Moves every escrowed domain from the auction PDA to `newOwner` (SNS Transfer signed by the PDA). */
export function releaseDomains(
  ctx: InvokeContext,
  a: AuctionAccount,
  escrow: Address,
  newOwner: Address,
): void {
  const seeds = auctionSignerSeeds(a);
  for (const domain of a.domains) {
    transferNameOwnership(ctx, { nameAccount: domain.nameAccount, currentOwner: escrow, newOwner }, [seeds]);
  }
}

/**
 * Pays `lamports` out of escrow. The rent-exempt minimum is untouchable: running into it means
 * the accounting is broken, and the instruction must fail rather than close the auction account.
 */
export function payFromEscrow(
  ctx: InvokeContext,
  escrow: InstructionAccount,
  to: InstructionAccount,
  lamports: bigint,
): void {
  if (lamports === 0n) return;
  const rentExempt = ctx.syscalls.minimumBalance(escrow.data.length);
  if (escrow.lamports - lamports < rentExempt) {
    throw new ProgramError('InsufficientFunds', `escrow holds ${escrow.lamports}, cannot pay ${lamports}`);
  }
  const credited = to.lamports + lamports;
  if (credited > 0xffff_ffff_ffff_ffffn) throw auctionError('MathOverflow', 'recipient balance');
  escrow.lamports -= lamports;
  to.lamports = credited;
}

/** Pays a sale out of escrow: the fee (Config.feeBps of the price) to the treasury, the rest to the seller. */
export function paySale(
  ctx: InvokeContext,
  p: { escrow: InstructionAccount; seller: InstructionAccount; treasury: InstructionAccount },
  price: bigint,
  feeBps: number,
): bigint {
  const { fee, sellerProceeds } = feeSplit(price, feeBps);
  payFromEscrow(ctx, p.escrow, p.treasury, fee);
  payFromEscrow(ctx, p.escrow, p.seller, sellerProceeds);
  return fee;
}
