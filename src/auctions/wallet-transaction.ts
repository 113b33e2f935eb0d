/** Unsigned transactions handed to wallets, with what callers need to confirm or rebuild them. */
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  buildUnsignedTransaction,
  TransactionTooLargeError,
  type TransactionVersion,
} from '../chain/transaction-builder.js';
import type { AuctionDeps } from './auction-deps.js';
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

/** Built on a blockhash at most ~2 s old (shared by the transactions of that time, see RecentBlockhashes). */
export async function walletTransaction(
  deps: Pick<AuctionDeps, 'connection' | 'blockhashes'>,
  feePayer: PublicKey,
  instructions: readonly TransactionInstruction[],
  version: TransactionVersion = 'legacy',
): Promise<WalletTransaction> {
  try {
    const recentBlockhash = await deps.blockhashes.get();
    const built = await buildUnsignedTransaction(deps.connection, {
      feePayer,
      instructions,
      version,
      recentBlockhash,
    });
    return {
      transaction: built.transaction,
      blockhash: built.blockhash,
      lastValidBlockHeight: built.lastValidBlockHeight,
      // Counted from when the blockhash was fetched, not from now: the wallet's deadline is true.
      expiresAt: recentBlockhash.fetchedAtMs + BLOCKHASH_LIFETIME_MS,
    };
  } catch (e) {
    if (e instanceof TransactionTooLargeError) throw invalidField('domainNames', e.message);
    throw e;
  }
}
