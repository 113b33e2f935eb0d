/**
 * What an unsigned transaction from the API would do, decoded locally (never trusting the API's
 * own description): fee payer, programs, signers, and the fee payer's SOL outflow measured by a
 * simulation (balance before vs. the simulated account after, fee included).
 */
import {
  ComputeBudgetProgram,
  type Connection,
  type PublicKey,
  SystemProgram,
  VersionedTransaction,
} from '@solana/web3.js';
import { formatSol } from '../../src/core/money.js';
import { AUCTION_PROGRAM_ID, NAME_PROGRAM_ID } from '../../src/core/program/ids.js';

export const KNOWN_PROGRAMS: Readonly<Record<string, string>> = {
  [AUCTION_PROGRAM_ID]: 'sns-auction program',
  [SystemProgram.programId.toBase58()]: 'System program',
  [ComputeBudgetProgram.programId.toBase58()]: 'ComputeBudget program',
  [NAME_PROGRAM_ID]: 'SPL Name Service',
};

export interface SimulationSummary {
  readonly ok: boolean;
  readonly error: string | null;
  readonly unitsConsumed: number | null;
  /** The last log lines (the program's reason when it fails). */
  readonly logsTail: string[];
  /** Net SOL leaving the fee payer (fee included); 0 when it gains. */
  readonly feePayerOutflowSol: string;
}

export interface TransactionSummary {
  readonly version: 'legacy' | 0;
  readonly feePayer: string;
  readonly signers: string[];
  readonly programs: { id: string; name: string }[];
  readonly instructionCount: number;
  readonly blockhash: string;
  readonly usesLookupTables: boolean;
  /** Null when no RPC is configured (SOLANA_RPC_URL). */
  readonly simulation: SimulationSummary | null;
}

export interface DecodedTransaction {
  readonly tx: VersionedTransaction;
  readonly feePayer: PublicKey;
  readonly programIds: string[];
}

/** Decodes wire bytes, legacy or v0: VersionedTransaction reads both without recompiling. */
export function decodeTransaction(bytes: Uint8Array): DecodedTransaction {
  const tx = VersionedTransaction.deserialize(bytes);
  const keys = tx.message.staticAccountKeys;
  const feePayer = keys[0];
  if (!feePayer) throw new Error('transaction has no fee payer');
  // Invoked programs must be static keys (lookup tables cannot hold them), so this list is complete.
  const programIds = [
    ...new Set(tx.message.compiledInstructions.map((ix) => keys[ix.programIdIndex]?.toBase58() ?? '?')),
  ];
  return { tx, feePayer, programIds };
}

/** Lamports the fee payer loses if the transaction lands now (simulated), fee included. */
export async function simulateOutflow(
  connection: Connection,
  decoded: DecodedTransaction,
): Promise<{ summary: SimulationSummary; outflowLamports: bigint }> {
  const payer = decoded.feePayer.toBase58();
  const before = BigInt(await connection.getBalance(decoded.feePayer, 'confirmed'));
  const { value } = await connection.simulateTransaction(decoded.tx, {
    sigVerify: false,
    commitment: 'confirmed',
    accounts: { encoding: 'base64', addresses: [payer] },
  });
  const after = value.accounts?.[0];
  // A failed simulation moves nothing; a missing account afterwards means it was emptied.
  const afterLamports = value.err ? before : after ? BigInt(after.lamports) : 0n;
  const outflow = before > afterLamports ? before - afterLamports : 0n;
  return {
    outflowLamports: outflow,
    summary: {
      ok: value.err === null,
      error: value.err === null ? null : JSON.stringify(value.err),
      unitsConsumed: value.unitsConsumed ?? null,
      logsTail: (value.logs ?? []).slice(-6),
      feePayerOutflowSol: formatSol(outflow),
    },
  };
}

export async function summarizeTransaction(
  bytes: Uint8Array,
  connection: Connection | null,
): Promise<{ summary: TransactionSummary; outflowLamports: bigint | null; decoded: DecodedTransaction }> {
  const decoded = decodeTransaction(bytes);
  const { tx } = decoded;
  const simulated = connection ? await simulateOutflow(connection, decoded) : null;
  const signers = tx.message.staticAccountKeys
    .slice(0, tx.message.header.numRequiredSignatures)
    .map((k) => k.toBase58());
  return {
    decoded,
    outflowLamports: simulated?.outflowLamports ?? null,
    summary: {
      version: tx.version,
      feePayer: decoded.feePayer.toBase58(),
      signers,
      programs: decoded.programIds.map((id) => ({ id, name: KNOWN_PROGRAMS[id] ?? 'unknown program' })),
      instructionCount: tx.message.compiledInstructions.length,
      blockhash: tx.message.recentBlockhash,
      usesLookupTables: tx.message.addressTableLookups.length > 0,
      simulation: simulated?.summary ?? null,
    },
  };
}
