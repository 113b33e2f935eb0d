import bs58 from 'bs58';
import type { InnerInstruction } from '../runtime/invocation.js';
import { type SanitizedTransaction, sanitizeTransaction } from '../runtime/sanitized-transaction.js';
import type { TransactionErrorJson } from '../runtime/transaction-error.js';
import type { TransactionRecord } from '../runtime/transaction-store.js';
import { RPC_ERRORS, RpcError } from './rpc-error.js';

const PACKET_DATA_SIZE = 1232;
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;
const TYPE_NAME = 'solana_transaction::versioned::VersionedTransaction';

/** The wire bytes of `sendTransaction` / `simulateTransaction`'s first param (base58 unless told). */
export function decodeWireTransaction(encoded: unknown, encoding: unknown): Uint8Array {
  if (typeof encoded !== 'string')
    throw RPC_ERRORS.invalidParams('invalid type: expected an encoded transaction string');
  const format = encoding ?? 'base58';
  let bytes: Uint8Array;
  if (format === 'base58') {
    if (encoded.length > MAX_BASE58_SIZE) {
      throw RPC_ERRORS.params(
        `base58 encoded ${TYPE_NAME} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${PACKET_DATA_SIZE})`,
      );
    }
    try {
      bytes = bs58.decode(encoded);
    } catch {
      throw RPC_ERRORS.params('invalid base58 encoding: InvalidCharacter');
    }
  } else if (format === 'base64') {
    if (encoded.length > MAX_BASE64_SIZE) {
      throw RPC_ERRORS.params(
        `base64 encoded ${TYPE_NAME} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`,
      );
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
      throw RPC_ERRORS.params('invalid base64 encoding: InvalidByte');
    }
    bytes = Buffer.from(encoded, 'base64');
  } else {
    throw RPC_ERRORS.params(`unsupported encoding: ${String(format)}. Supported encodings: base58, base64`);
  }
  if (bytes.length > PACKET_DATA_SIZE) {
    throw RPC_ERRORS.params(
      `decoded ${TYPE_NAME} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`,
    );
  }
  return bytes;
}

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export interface TransactionEncodingOptions {
  readonly encoding: TransactionEncoding;
  readonly maxSupportedTransactionVersion?: number;
}

/** A recorded transaction in `getTransaction`'s shape. */
export function encodeTransactionRecord(record: TransactionRecord, options: TransactionEncodingOptions) {
  const tx = sanitizeTransaction(record.raw);
  if (tx.version === 0 && options.maxSupportedTransactionVersion === undefined) {
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const parsed = options.encoding === 'jsonParsed';
  return {
    slot: record.slot,
    blockTime: record.blockTime,
    ...(options.maxSupportedTransactionVersion !== undefined ? { version: tx.version } : {}),
    transaction: encodeTransaction(tx, options.encoding),
    meta: {
      err: record.err,
      status: statusOf(record.err),
      fee: Number(record.fee),
      preBalances: record.preBalances.map(Number),
      postBalances: record.postBalances.map(Number),
      innerInstructions: record.innerInstructions.map(({ index, instructions }) => ({
        index,
        instructions: instructions.map((ix) => (parsed ? parsedInner(tx, ix) : compiledInner(ix))),
      })),
      logMessages: record.logs,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: record.unitsConsumed,
    },
  };
}

export function statusOf(err: TransactionErrorJson | null): { Ok: null } | { Err: TransactionErrorJson } {
  return err === null ? { Ok: null } : { Err: err };
}

function encodeTransaction(tx: SanitizedTransaction, encoding: TransactionEncoding) {
  if (encoding === 'base64') return [Buffer.from(tx.raw).toString('base64'), 'base64'];
  if (encoding === 'base58') return [bs58.encode(tx.raw), 'base58'];
  const lookups = tx.version === 0 ? { addressTableLookups: [] } : {};
  const signatures = tx.signatures.map((s) => bs58.encode(s));
  if (encoding === 'jsonParsed') {
    return {
      signatures,
      message: {
        accountKeys: tx.accountKeys.map((pubkey, i) => ({
          pubkey,
          writable: tx.isWritable[i] ?? false,
          signer: tx.isSigner[i] ?? false,
          source: 'transaction',
        })),
        recentBlockhash: tx.recentBlockhash,
        instructions: tx.instructions.map((ix) => ({
          programId: tx.accountKeys[ix.programIdIndex],
          accounts: ix.accountIndexes.map((i) => tx.accountKeys[i]),
          data: bs58.encode(ix.data),
          stackHeight: null,
        })),
        ...lookups,
      },
    };
  }
  return {
    signatures,
    message: {
      accountKeys: tx.accountKeys,
      header: tx.header,
      recentBlockhash: tx.recentBlockhash,
      instructions: tx.instructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: ix.accountIndexes,
        data: bs58.encode(ix.data),
        stackHeight: null,
      })),
      ...lookups,
    },
  };
}

function compiledInner(ix: InnerInstruction) {
  return {
    programIdIndex: ix.programIdIndex,
    accounts: ix.accounts,
    data: bs58.encode(ix.data),
    stackHeight: ix.stackHeight,
  };
}

export function parsedInner(tx: { accountKeys: readonly string[] }, ix: InnerInstruction) {
  return {
    programId: tx.accountKeys[ix.programIdIndex],
    accounts: ix.accounts.map((i) => tx.accountKeys[i]),
    data: bs58.encode(ix.data),
    stackHeight: ix.stackHeight,
  };
}
