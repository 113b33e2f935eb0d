import bs58 from 'bs58';
import type { Address } from '../../core/address.js';
import { LruCache } from '../../core/collections/lru-cache.js';
import { RESERVED_ACCOUNT_KEYS } from './well-known-ids.js';
import { readWireTransaction, type WireInstruction, type WireTransaction } from './wire-transaction.js';

/** A deserialized transaction whose indexes were checked, with the account privileges resolved. */
export interface SanitizedTransaction {
  readonly raw: Uint8Array;
  readonly signatures: readonly Uint8Array[];
  /** Raw public keys of the signers, in signature order. */
  readonly signerKeyBytes: readonly Uint8Array[];
  /** The first signature, base58: the transaction id. */
  readonly signature: string;
  /** The exact bytes the signatures cover. */
  readonly messageBytes: Uint8Array;
  readonly version: 'legacy' | 0;
  readonly header: WireTransaction['header'];
  readonly accountKeys: readonly Address[];
  readonly recentBlockhash: string;
  readonly instructions: readonly WireInstruction[];
  readonly isSigner: readonly boolean[];
  readonly isWritable: readonly boolean[];
}

/** A transaction the RPC refuses before simulation (JSON-RPC -32602 with this message). */
export class TransactionDecodeError extends Error {
  override readonly name = 'TransactionDecodeError';
}

const SANITIZE_FAILURE = 'invalid transaction: Transaction failed to sanitize accounts offsets correctly';

export function sanitizeTransaction(raw: Uint8Array): SanitizedTransaction {
  let wire: WireTransaction;
  try {
    wire = readWireTransaction(raw);
  } catch {
    throw new TransactionDecodeError(
      'failed to deserialize solana_transaction::versioned::VersionedTransaction: io error: failed to fill whole buffer',
    );
  }
  if (wire.addressTableLookups.length > 0) {
    // The localnet has no address lookup table program, so no table can exist.
    throw new TransactionDecodeError(
      "invalid transaction: Transaction loads an address table account that doesn't exist",
    );
  }
  const { header, instructions } = wire;
  const keyCount = wire.accountKeys.length;
  const sane =
    wire.signatures.length === header.numRequiredSignatures &&
    header.numReadonlySignedAccounts < header.numRequiredSignatures &&
    header.numRequiredSignatures + header.numReadonlyUnsignedAccounts <= keyCount &&
    keyCount <= 256 &&
    instructions.every(
      (ix) =>
        ix.programIdIndex > 0 && ix.programIdIndex < keyCount && ix.accountIndexes.every((i) => i < keyCount),
    );
  const firstSignature = wire.signatures[0];
  if (!sane || !firstSignature) throw new TransactionDecodeError(SANITIZE_FAILURE);

  const accountKeys = wire.accountKeys.map(base58Key);
  const calledAsProgram = new Set(instructions.map((ix) => ix.programIdIndex));
  const isSigner = accountKeys.map((_, i) => i < header.numRequiredSignatures);
  const isWritable = accountKeys.map((key, i) => {
    const writableByHeader =
      i < header.numRequiredSignatures
        ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts
        : i < keyCount - header.numReadonlyUnsignedAccounts;
    return writableByHeader && !calledAsProgram.has(i) && !RESERVED_ACCOUNT_KEYS.has(key);
  });
  return {
    raw,
    signatures: wire.signatures,
    signerKeyBytes: wire.accountKeys.slice(0, header.numRequiredSignatures),
    signature: bs58.encode(firstSignature),
    messageBytes: wire.message,
    version: wire.version,
    header,
    accountKeys,
    recentBlockhash: bs58.encode(wire.recentBlockhash),
    instructions,
    isSigner,
    isWritable,
  };
}

// The same few keys (programs, config, active wallets) appear in most transactions.
const base58Keys = new LruCache<string, Address>(50_000);

function base58Key(bytes: Uint8Array): Address {
  const id = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let key = base58Keys.get(id);
  if (key === undefined) {
    key = bs58.encode(bytes) as Address;
    base58Keys.set(id, key);
  }
  return key;
}
