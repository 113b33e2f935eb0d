import type { Address } from '../../core/address.js';
import { transactionCost } from './fees.js';
import { type InnerInstruction, type InvocationEnv, InvocationRunner } from './invocation.js';
import type { Ledger, LedgerAccount } from './ledger.js';
import { isRentStateTransitionAllowed } from './rent.js';
import type { SanitizedTransaction } from './sanitized-transaction.js';
import { TransactionAccount } from './transaction-account.js';
import type { TransactionErrorJson } from './transaction-error.js';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;

export interface ExecutionEnv extends InvocationEnv {
  readonly ledger: Ledger;
  isBlockhashValid(blockhash: string): boolean;
  isProcessed(signature: string): boolean;
}

/** Refused before any fee is charged: a validator drops it and nothing is recorded. */
export interface DroppedTransaction {
  readonly kind: 'dropped';
  readonly err: TransactionErrorJson;
}

/** Charged and recorded, successful or not. */
export interface ExecutedTransaction {
  readonly kind: 'executed';
  readonly err: TransactionErrorJson | null;
  readonly fee: bigint;
  readonly logs: readonly string[];
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly innerInstructions: ReadonlyMap<number, readonly InnerInstruction[]>;
  readonly unitsConsumed: number;
  /** What to write back: every modified account on success, only the fee payer's debit on failure. */
  readonly writes: readonly TransactionAccount[];
}

export type ProcessedTransaction = DroppedTransaction | ExecutedTransaction;

/**
 * Runs a sanitized transaction against the ledger without writing to it: the validator's checks
 * (account locks, blockhash age, status cache, fee payer), then the instructions all-or-nothing.
 */
export function processTransaction(
  env: ExecutionEnv,
  tx: SanitizedTransaction,
  options: { checkBlockhash?: boolean } = {},
): ProcessedTransaction {
  if (new Set(tx.accountKeys).size !== tx.accountKeys.length) return dropped('AccountLoadedTwice');
  if (options.checkBlockhash !== false && !env.isBlockhashValid(tx.recentBlockhash)) {
    return dropped('BlockhashNotFound');
  }
  if (env.isProcessed(tx.signature)) return dropped('AlreadyProcessed');
  const { fee, unitLimit } = transactionCost(tx, env.programs);
  const payerKey = tx.accountKeys[0] as Address;
  const payer = env.ledger.get(payerKey);
  const feeError = validateFeePayer(payer, fee);
  if (feeError) return dropped(feeError);

  const accounts = tx.accountKeys.map((key) => new TransactionAccount(key, env.ledger.get(key)));
  const preBalances = accounts.map((a) => a.lamports);
  (accounts[0] as TransactionAccount).lamports -= fee;
  const failed = (err: TransactionErrorJson, runner?: InvocationRunner): ExecutedTransaction => {
    const payerAfterFee = new TransactionAccount(payerKey, payer);
    payerAfterFee.lamports -= fee;
    return {
      kind: 'executed',
      err,
      fee,
      logs: runner?.logs.lines ?? [],
      preBalances,
      postBalances: preBalances.map((b, i) => (i === 0 ? b - fee : b)),
      innerInstructions: runner?.innerInstructions ?? new Map(),
      unitsConsumed: runner?.unitsConsumed ?? 0,
      writes: [payerAfterFee],
    };
  };

  const programError = checkPrograms(env, tx);
  if (programError) return failed(programError);
  const rentBefore = accounts.map((a) => ({ lamports: a.lamports, dataLength: a.peekData().length }));
  const runner = new InvocationRunner(env, accounts, unitLimit);
  for (const [i, ix] of tx.instructions.entries()) {
    const program = env.programs.get(tx.accountKeys[ix.programIdIndex] as Address);
    if (!program) return failed('InvalidProgramForExecution', runner);
    const error = runner.runInstruction(i, program, ix.accountIndexes, ix.data, tx.isSigner, tx.isWritable);
    if (error) return failed({ InstructionError: [i, error] }, runner);
  }
  for (const [i, account] of accounts.entries()) {
    if (!tx.isWritable[i]) continue;
    const after = { lamports: account.lamports, dataLength: account.peekData().length };
    if (!isRentStateTransitionAllowed(rentBefore[i] ?? after, after)) {
      return failed({ InsufficientFundsForRent: { account_index: i } }, runner);
    }
  }
  return {
    kind: 'executed',
    err: null,
    fee,
    logs: runner.logs.lines,
    preBalances,
    postBalances: accounts.map((a) => a.lamports),
    innerInstructions: runner.innerInstructions,
    unitsConsumed: runner.unitsConsumed,
    writes: accounts.filter((a, i) => tx.isWritable[i] && a.isModified()),
  };
}

function dropped(err: TransactionErrorJson): DroppedTransaction {
  return { kind: 'dropped', err };
}

/** Agave's `validate_fee_payer`: an existing system account that can pay and stay rent exempt. */
function validateFeePayer(payer: LedgerAccount | undefined, fee: bigint): TransactionErrorJson | null {
  if (!payer || payer.lamports === 0n) return 'AccountNotFound';
  if (payer.owner !== SYSTEM_PROGRAM || payer.data.length > 0) return 'InvalidAccountForFee';
  if (payer.lamports < fee) return 'InsufficientFundsForFee';
  const before = { lamports: payer.lamports, dataLength: 0 };
  if (!isRentStateTransitionAllowed(before, { lamports: payer.lamports - fee, dataLength: 0 })) {
    return { InsufficientFundsForRent: { account_index: 0 } };
  }
  return null;
}

function checkPrograms(env: ExecutionEnv, tx: SanitizedTransaction): TransactionErrorJson | null {
  for (const ix of tx.instructions) {
    const key = tx.accountKeys[ix.programIdIndex] as Address;
    const account = env.ledger.get(key);
    if (!account) return 'ProgramAccountNotFound';
    if (!account.executable || !env.programs.has(key)) return 'InvalidProgramForExecution';
  }
  return null;
}
