/**
 * Unsigned transactions for wallets to sign: fee payer = the caller, a fresh blockhash, zeroed
 * signature slots. Legacy by default (what existing clients decode with `Transaction.from`), v0 on request.
 */
import {
  type Commitment,
  type Connection,
  type MessageV0,
  PACKET_DATA_SIZE,
  type PublicKey,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { compileLegacyTransaction, legacyWireSize } from './legacy-transaction.js';

export type TransactionVersion = 'legacy' | 0;

export interface BuildTransactionRequest {
  readonly feePayer: PublicKey;
  readonly instructions: readonly TransactionInstruction[];
  /** Default 'legacy'. */
  readonly version?: TransactionVersion;
  /** Commitment of the blockhash fetch; default 'confirmed'. */
  readonly commitment?: Commitment;
  /** A recent blockhash to use instead of fetching one (e.g. from `RecentBlockhashes`). */
  readonly recentBlockhash?: { readonly blockhash: string; readonly lastValidBlockHeight: number };
}

export interface UnsignedTransaction {
  /** The wire transaction, base64, with a zeroed 64-byte slot per required signature. */
  readonly transaction: string;
  readonly version: TransactionVersion;
  readonly blockhash: string;
  /** The transaction is valid while the block height is ≤ this. */
  readonly lastValidBlockHeight: number;
  /** Base58 keys that must sign, fee payer first: the fee payer alone unless an instruction needs more. */
  readonly signers: readonly string[];
  readonly sizeBytes: number;
}

/** Solana's wire limit for one transaction (the IPv6 MTU minus headers). */
export const MAX_TRANSACTION_BYTES = PACKET_DATA_SIZE;

export class TransactionTooLargeError extends Error {
  override readonly name = 'TransactionTooLargeError';
  constructor(readonly sizeBytes: number) {
    super(
      `transaction too large: ${sizeBytes} bytes > ${MAX_TRANSACTION_BYTES} (fewer domains per transaction, or a v0 transaction with lookup tables)`,
    );
  }
}

/**
 * Wire size of a v0 transaction computed from the compiled message, because web3.js fails with an
 * opaque RangeError (not a size) when it serializes a message past its fixed 1232-byte buffer.
 * A v0 message is a legacy one plus its version byte and an empty lookup-table list.
 */
function wireSize(message: MessageV0): number {
  const instructions = message.compiledInstructions.map((ix) => ({
    accounts: ix.accountKeyIndexes.length,
    data: ix.data.length,
  }));
  return (
    legacyWireSize(message.header.numRequiredSignatures, message.staticAccountKeys.length, instructions) +
    1 +
    1
  );
}

function signerKeys(message: MessageV0): string[] {
  return message.staticAccountKeys.slice(0, message.header.numRequiredSignatures).map((k) => k.toBase58());
}

/** Builds an unsigned transaction with a fresh (or the given recent) blockhash; throws TransactionTooLargeError past 1232 bytes. */
export async function buildUnsignedTransaction(
  connection: Connection,
  request: BuildTransactionRequest,
): Promise<UnsignedTransaction> {
  const version = request.version ?? 'legacy';
  const instructions = [...request.instructions];
  if (instructions.length === 0) throw new TypeError('a transaction needs at least one instruction');
  const { blockhash, lastValidBlockHeight } =
    request.recentBlockhash ?? (await connection.getLatestBlockhash(request.commitment ?? 'confirmed'));

  if (version === 'legacy') {
    // Compiled straight to bytes: the same bytes as web3.js's compileMessage + serialize, less CPU.
    const compiled = compileLegacyTransaction(
      request.feePayer,
      instructions,
      blockhash,
      MAX_TRANSACTION_BYTES,
    );
    if ('tooLarge' in compiled) throw new TransactionTooLargeError(compiled.tooLarge);
    return {
      transaction: Buffer.from(compiled.bytes).toString('base64'),
      version,
      blockhash,
      lastValidBlockHeight,
      signers: compiled.signers,
      sizeBytes: compiled.bytes.length,
    };
  }
  const message = new TransactionMessage({
    payerKey: request.feePayer,
    recentBlockhash: blockhash,
    instructions,
  }).compileToV0Message();

  const sizeBytes = wireSize(message);
  if (sizeBytes > MAX_TRANSACTION_BYTES) throw new TransactionTooLargeError(sizeBytes);
  // Zeroed signature slots and the compiled message, compiled once.
  const bytes = new VersionedTransaction(message).serialize();
  return {
    transaction: Buffer.from(bytes).toString('base64'),
    version,
    blockhash,
    lastValidBlockHeight,
    signers: signerKeys(message),
    sizeBytes: bytes.length,
  };
}
