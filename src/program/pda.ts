import type { Address } from '../core/address.js';
import { SYSTEM_PROGRAM_ID } from '../core/program/ids.js';
import {
  type InstructionAccount,
  type InvokeContext,
  ProgramError,
} from '../localnet/runtime/program-abi.js';
import { allocate, assign, createAccount, transferLamports } from './cpi.js';

/**
 * Anchor's `init` for a PDA: a rent-exempt account of `space` bytes owned by this program, paid by
 * `payer`. An address someone pre-funded (possible, since auction ids are known before the
 * transaction lands) is topped up, allocated and assigned instead of failing CreateAccount.
 */
export function initializePda(
  ctx: InvokeContext,
  p: { payer: Address; account: InstructionAccount; space: number; signerSeeds: readonly Uint8Array[] },
): void {
  const { account } = p;
  if (account.owner !== SYSTEM_PROGRAM_ID || account.data.length > 0) {
    throw new ProgramError('AccountAlreadyInitialized', `${account.key} is already in use`);
  }
  const rentExempt = ctx.syscalls.minimumBalance(p.space);
  const seeds = [p.signerSeeds];
  if (account.lamports === 0n) {
    createAccount(
      ctx,
      { payer: p.payer, newAccount: account.key, lamports: rentExempt, space: p.space, owner: ctx.programId },
      seeds,
    );
    return;
  }
  if (account.lamports < rentExempt)
    transferLamports(ctx, p.payer, account.key, rentExempt - account.lamports);
  allocate(ctx, account.key, p.space, seeds);
  assign(ctx, account.key, ctx.programId, seeds);
}
