/**
 * initialize_config: creates the Config PDA ["config"] once, on a real deployment (the localnet
 * writes it at genesis). The signer becomes the authority.
 *
 * Accounts: 0 authority (signer, writable) · 1 config PDA (writable) · 2 system program.
 */
import { MAX_SNIPE_WINDOW_SECONDS } from '../core/auction-rules/create-rules.js';
import { CONFIG_ACCOUNT_SIZE, encodeConfigAccount, MAX_FEE_BPS } from '../core/program/config-account.js';
import { SEEDS, SYSTEM_PROGRAM_ID } from '../core/program/ids.js';
import type { InitializeConfigArgs } from '../core/program/instructions.js';
import { type InvokeContext, ProgramError } from '../localnet/runtime/program-abi.js';
import { accountAt, requireProgram, requireSigner, requireWritable } from './accounts.js';
import { auctionError } from './errors.js';
import { initializePda } from './pda.js';

export const CONFIG_ACCOUNT_VERSION = 1;

export function initializeConfig(ctx: InvokeContext, args: InitializeConfigArgs): void {
  const authority = accountAt(ctx, 0, 'authority');
  const configAccount = accountAt(ctx, 1, 'config');
  requireSigner(authority, 'authority');
  requireWritable(authority, 'authority');
  requireWritable(configAccount, 'config');
  requireProgram(accountAt(ctx, 2, 'system program'), SYSTEM_PROGRAM_ID, 'system program');
  if (args.feeBps > MAX_FEE_BPS) throw auctionError('InvalidFee', `${args.feeBps} bps`);
  if (args.defaultSnipeWindowSeconds > MAX_SNIPE_WINDOW_SECONDS) {
    throw auctionError('InvalidSnipeSettings', `snipe window ${args.defaultSnipeWindowSeconds} s`);
  }

  const [expected, bump] = ctx.syscalls.findProgramAddress([SEEDS.config], ctx.programId);
  if (configAccount.key !== expected) throw new ProgramError('InvalidSeeds', `config must be ${expected}`);
  initializePda(ctx, {
    payer: authority.key,
    account: configAccount,
    space: CONFIG_ACCOUNT_SIZE,
    signerSeeds: [SEEDS.config, Uint8Array.of(bump)],
  });
  configAccount.data = encodeConfigAccount({
    version: CONFIG_ACCOUNT_VERSION,
    bump,
    authority: authority.key,
    keeper: args.keeper,
    treasury: args.treasury,
    feeBps: args.feeBps,
    defaultSnipeWindowSeconds: args.defaultSnipeWindowSeconds,
  });
  ctx.log(`Config initialized: keeper ${args.keeper}, treasury ${args.treasury}, fee ${args.feeBps} bps`);
}
