/** Unsigned transactions handed to wallets, with what callers need to confirm or rebuild them. */
import type { Connection, PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  buildUnsignedTransaction,
  TransactionTooLargeError,
  type TransactionVersion,
} from '../chain/transaction-builder.js';
import { invalidField } from './field-errors.js';

/** A blockhash is valid for 150 blocks of ~400 ms. */
export const BLOCKHASH_LIFETIME_MS = 150 * 400;

/** Base fee of one signature: every wallet transaction here has exactly one signer. */
export const SIGNATURE_FEE_LAMPORTS = 5_000n;

export interface WalletTransaction {
  /** base64 wire transaction, legacy unless v0 was asked for; only the caller's signature is missing. */
  readonly transaction: string;
  readonly blockhash: string;
  readonly lastValidBlockHeight: number;
  /** Unix ms (wall clock) after which the blockhash has expired: rebuild then. */
  readonly expiresAt: number;
}

export async function walletTransaction(
  connection: Connection,
  feePayer: PublicKey,
  instructions: readonly TransactionInstruction[],
  version: TransactionVersion = 'legacy',
): Promise<WalletTransaction> {
  try {
    const built = await buildUnsignedTransaction(connection, { feePayer, instructions, version });
    return {
      transaction: built.transaction,
      blockhash: built.blockhash,
      lastValidBlockHeight: built.lastValidBlockHeight,
      expiresAt: Date.now() + BLOCKHASH_LIFETIME_MS,
    };
  } catch (e) {
    if (e instanceof TransactionTooLargeError) throw invalidField('domainNames', e.message);
    throw e;
  }
}
