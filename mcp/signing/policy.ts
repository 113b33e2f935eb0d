/**
 * The signing policy, checked in code before any signature. Tool arguments cannot change it: it
 * comes from the server's environment only. Pure: the caller supplies what was measured.
 */
import { ComputeBudgetProgram, SystemProgram } from '@solana/web3.js';
import { formatSol, type Lamports, solToLamports } from '../../src/core/money.js';
import { AUCTION_PROGRAM_ID } from '../../src/core/program/ids.js';
import type { McpConfig } from '../config.js';
import type { PreparedKind } from './prepared-store.js';

export interface SigningPolicy {
  readonly maxBidLamports: Lamports;
  readonly dailyCapLamports: Lamports;
  /** Above this outflow the user must confirm (elicitation); without elicitation the call is refused. */
  readonly confirmAboveLamports: Lamports;
  readonly dryRun: boolean;
  readonly allowedPrograms: ReadonlySet<string>;
}

/**
 * Rent and fees a create or cancel may cost beyond the bid: an auction account's rent is about
 * 0.004 SOL; anything far above means the transaction does more than it says.
 */
export const NON_BID_OUTFLOW_ALLOWANCE: Lamports = 50_000_000n;
/** Fees on top of a bid (signature fee + priority fee). */
export const FEE_ALLOWANCE: Lamports = 10_000_000n;

export function signingPolicyOf(config: McpConfig['policy']): SigningPolicy {
  return {
    maxBidLamports: solToLamports(config.maxBidSol),
    dailyCapLamports: solToLamports(config.dailySpendCapSol),
    confirmAboveLamports: solToLamports(config.confirmAboveSol),
    dryRun: config.dryRun,
    // Not the Name Service at top level: the auction program moves domains by CPI, and a direct
    // SNS transfer signed by the wallet would give a domain away without moving any SOL (the
    // outflow check cannot see it). EXTRA_ALLOWED_PROGRAMS can add it back.
    allowedPrograms: new Set([
      AUCTION_PROGRAM_ID,
      SystemProgram.programId.toBase58(),
      ComputeBudgetProgram.programId.toBase58(),
      ...config.extraAllowedPrograms,
    ]),
  };
}

export interface TransactionShape {
  readonly wallet: string;
  readonly feePayer: string;
  readonly programIds: readonly string[];
}

export interface SpendRequest {
  readonly kind: PreparedKind;
  readonly declaredLamports: Lamports;
  /** Measured by simulation. */
  readonly outflowLamports: Lamports;
  readonly spentTodayLamports: Lamports;
}

export type PolicyVerdict =
  | { readonly allow: true; readonly needsConfirmation: boolean }
  | { readonly allow: false; readonly rule: PolicyRule; readonly reason: string };

export type PolicyRule = 'fee_payer' | 'program_allowlist' | 'max_bid' | 'outflow_mismatch' | 'daily_cap';

/** Who pays and what runs: checked first, before the transaction is even simulated. */
export function checkTransactionShape(policy: SigningPolicy, r: TransactionShape): PolicyVerdict {
  if (r.feePayer !== r.wallet) {
    return refuse(
      'fee_payer',
      `the transaction's fee payer ${r.feePayer} is not this server's wallet ${r.wallet}; it was prepared for another wallet`,
    );
  }
  const foreign = r.programIds.filter((id) => !policy.allowedPrograms.has(id));
  if (foreign.length > 0) {
    return refuse(
      'program_allowlist',
      `the transaction calls programs outside the allowlist (${foreign.join(', ')}); refusing to sign`,
    );
  }
  return { allow: true, needsConfirmation: false };
}

/** How much leaves the wallet, against the per-auction, consistency and daily limits. */
export function checkSpend(policy: SigningPolicy, r: SpendRequest): PolicyVerdict {
  if (r.kind === 'bid_place' && r.declaredLamports > policy.maxBidLamports) {
    return refuse(
      'max_bid',
      `bid of ${formatSol(r.declaredLamports)} SOL is above MAX_BID_SOL ${formatSol(policy.maxBidLamports)} SOL for one auction; bid at most that, or ask the operator to raise MAX_BID_SOL`,
    );
  }
  const allowance = r.kind === 'bid_place' ? r.declaredLamports + FEE_ALLOWANCE : NON_BID_OUTFLOW_ALLOWANCE;
  if (r.outflowLamports > allowance) {
    return refuse(
      'outflow_mismatch',
      `the simulation moves ${formatSol(r.outflowLamports)} SOL out of the wallet, more than the ${formatSol(allowance)} SOL this ${r.kind} may cost; refusing to sign`,
    );
  }
  if (r.spentTodayLamports + r.outflowLamports > policy.dailyCapLamports) {
    const left = policy.dailyCapLamports - r.spentTodayLamports;
    return refuse(
      'daily_cap',
      `over the daily cap: ${formatSol(r.spentTodayLamports)} SOL already signed today (UTC), this needs ${formatSol(r.outflowLamports)} SOL, DAILY_SPEND_CAP_SOL is ${formatSol(policy.dailyCapLamports)} SOL (${formatSol(left > 0n ? left : 0n)} SOL left); wait for the next UTC day or ask the operator`,
    );
  }
  return { allow: true, needsConfirmation: r.outflowLamports > policy.confirmAboveLamports };
}

function refuse(rule: PolicyRule, reason: string): PolicyVerdict {
  return { allow: false, rule, reason };
}
