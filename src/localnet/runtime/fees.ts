import {
  COMPUTE_BUDGET_PROGRAM_ID,
  decodeComputeBudgetInstruction,
} from '../programs/compute-budget-program.js';
import type { ProgramRegistry } from './invocation.js';
import type { SanitizedTransaction } from './sanitized-transaction.js';

export const LAMPORTS_PER_SIGNATURE = 5_000n;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;
const DEFAULT_INSTRUCTION_UNIT_LIMIT = 200_000;
const BUILTIN_INSTRUCTION_UNIT_LIMIT = 3_000;

export type TransactionShape = Pick<SanitizedTransaction, 'header' | 'accountKeys' | 'instructions'>;

export interface TransactionCost {
  readonly unitLimit: number;
  /** Base fee (5,000 per signature) plus the prioritization fee (unit price × limit). */
  readonly fee: bigint;
}

/** Fee and compute limit as Agave derives them from a transaction's ComputeBudget instructions. */
export function transactionCost(tx: TransactionShape, programs: ProgramRegistry): TransactionCost {
  let requestedLimit: number | null = null;
  let microLamports = 0n;
  let defaultLimit = 0;
  for (const ix of tx.instructions) {
    const programId = tx.accountKeys[ix.programIdIndex];
    if (programId === COMPUTE_BUDGET_PROGRAM_ID) {
      const request = decodeComputeBudgetInstruction(ix.data);
      if (request?.kind === 'setComputeUnitLimit') requestedLimit = request.units;
      if (request?.kind === 'setComputeUnitPrice') microLamports = request.microLamports;
      continue;
    }
    const builtin = programId !== undefined && programs.get(programId)?.builtin;
    defaultLimit += builtin ? BUILTIN_INSTRUCTION_UNIT_LIMIT : DEFAULT_INSTRUCTION_UNIT_LIMIT;
  }
  const unitLimit = Math.min(requestedLimit ?? defaultLimit, MAX_COMPUTE_UNIT_LIMIT);
  const priorityFee = (microLamports * BigInt(unitLimit) + 999_999n) / 1_000_000n;
  return { unitLimit, fee: LAMPORTS_PER_SIGNATURE * BigInt(tx.header.numRequiredSignatures) + priorityFee };
}
