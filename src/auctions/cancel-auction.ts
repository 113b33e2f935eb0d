/**
 * POST /auctions/:id/cancel: the seller withdraws an auction nobody has bid on. Returns the unsigned
 * cancel transaction; the domains go back to the seller when it lands.
 */
import { PublicKey } from '@solana/web3.js';
import { cancelInstruction } from '../chain/auction-client.js';
import type { TransactionVersion } from '../chain/transaction-builder.js';
import type { Address } from '../core/address.js';
import { AppError } from '../core/errors.js';
import type { AuctionDeps } from './auction-deps.js';
import { readAuction } from './chain-reads.js';
import { type WalletTransaction, walletTransaction } from './wallet-transaction.js';

export interface CancelAuctionInput {
  readonly auctionId: Address;
  /** The wallet tied to the calling key: must be the seller. */
  readonly caller: Address;
  readonly txVersion?: TransactionVersion | undefined;
}

export interface PreparedCancel extends WalletTransaction {
  readonly auctionId: Address;
  readonly seller: Address;
}

export async function cancelAuction(deps: AuctionDeps, input: CancelAuctionInput): Promise<PreparedCancel> {
  const { auction } = await readAuction(deps, input.auctionId);
  if (auction.seller !== input.caller) {
    throw new AppError('UNAUTHORIZED', "only the seller's keys may cancel this auction", { httpStatus: 403 });
  }
  if (auction.state !== 'active') {
    throw new AppError('INVALID_REQUEST', `the auction is already ${auction.state}`, {
      details: { reason: `already_${auction.state}` },
    });
  }
  if (auction.bidCount > 0) {
    throw new AppError(
      'INVALID_REQUEST',
      `an auction with bids cannot be cancelled (${auction.bidCount} bid(s))`,
      {
        details: { reason: 'has_bids' },
      },
    );
  }
  const tx = await walletTransaction(
    deps,
    new PublicKey(auction.seller),
    [cancelInstruction({ auction })],
    input.txVersion,
  );
  return { ...tx, auctionId: input.auctionId, seller: auction.seller };
}
