/**
 * Unsigned transactions for wallets to sign: fee payer = the caller, a fresh blockhash, zeroed
 * signature slots. Legacy by default (what existing clients decode with `Transaction.from`), v0 on request.
 */
import {
  type Commitment,
  type Connection,
  type Message,
  type MessageV0,
  PACKET_DATA_SIZE,
  type PublicKey,
  Transaction,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';

export type TransactionVersion = 'legacy' | 0;

export interface BuildTransactionRequest {
  readonly feePayer: PublicKey;
  readonly instructions: readonly TransactionInstruction[];
  /** Default 'legacy'. */
  readonly version?: TransactionVersion;
  /** Commitment of the blockhash fetch; default 'confirmed'. */
  readonly commitment?: Commitment;
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

function shortVecLength(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

/**
 * Wire size computed from the compiled message, because web3.js fails with an opaque RangeError
 * (not a size) when it serializes a message past its fixed 1232-byte buffer.
 */
function wireSize(message: Message | MessageV0, version: TransactionVersion): number {
  const signatures = message.header.numRequiredSignatures;
  const keys = message.staticAccountKeys.length;
  const instructions = message.compiledInstructions.reduce(
    (sum, ix) =>
      sum +
      1 +
      shortVecLength(ix.accountKeyIndexes.length) +
      ix.accountKeyIndexes.length +
      shortVecLength(ix.data.length) +
      ix.data.length,
    0,
  );
  const messageSize =
    (version === 0 ? 1 : 0) +
    3 +
    shortVecLength(keys) +
    32 * keys +
    32 +
    shortVecLength(message.compiledInstructions.length) +
    instructions +
    (version === 0 ? shortVecLength(0) : 0);
  return shortVecLength(signatures) + 64 * signatures + messageSize;
}

function signerKeys(message: Message | MessageV0): string[] {
  return message.staticAccountKeys.slice(0, message.header.numRequiredSignatures).map((k) => k.toBase58());
}

/** Builds an unsigned transaction with a fresh blockhash; throws TransactionTooLargeError past 1232 bytes. */
export async function buildUnsignedTransaction(
  connection: Connection,
  request: BuildTransactionRequest,
): Promise<UnsignedTransaction> {
  const version = request.version ?? 'legacy';
  const instructions = [...request.instructions];
  if (instructions.length === 0) throw new TypeError('a transaction needs at least one instruction');
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash(
    request.commitment ?? 'confirmed',
  );

  const message: Message | MessageV0 =
    version === 'legacy'
      ? new Transaction({ feePayer: request.feePayer, blockhash, lastValidBlockHeight })
          .add(...instructions)
          .compileMessage()
      : new TransactionMessage({
          payerKey: request.feePayer,
          recentBlockhash: blockhash,
          instructions,
        }).compileToV0Message();

  const sizeBytes = wireSize(message, version);
  if (sizeBytes > MAX_TRANSACTION_BYTES) throw new TransactionTooLargeError(sizeBytes);
  // Zeroed signature slots and the compiled message: the bytes `Transaction.serialize` writes for
  // an unsigned legacy transaction, without compiling the message a second time.
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
