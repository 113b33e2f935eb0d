/** Closing an auction: the one path for a sale (bid-time for dutch/buy_now, keeper-time for English). */
import type { Address } from '../core/address.js';
import type { AuctionAccount } from '../core/program/auction-account.js';
import type { ConfigAccount } from '../core/program/config-account.js';
import type { InstructionAccount, InvokeContext } from '../localnet/runtime/program-abi.js';
import { requireKey, requireWritable } from './accounts.js';
import { emit } from './emit.js';
import { paySale, releaseDomains, requireEscrowedNameAccounts } from './escrow.js';

export interface SaleAccounts {
  readonly auction: InstructionAccount;
  readonly seller: InstructionAccount;
  readonly treasury: InstructionAccount;
  readonly nameAccounts: readonly InstructionAccount[];
}

/**
 * The domains go to `winner`, `price` leaves escrow (fee to the treasury, the rest to the seller),
 * and the auction becomes Settled. Returns the new state; the caller stores it.
 */
export function completeSale(
  ctx: InvokeContext,
  a: AuctionAccount,
  accounts: SaleAccounts,
  config: ConfigAccount,
  sale: { readonly winner: Address; readonly price: bigint },
): AuctionAccount {
  requireKey(accounts.treasury, config.treasury, 'treasury');
  requireWritable(accounts.treasury, 'treasury');
  requireWritable(accounts.seller, 'seller');
  requireEscrowedNameAccounts(a, accounts.nameAccounts);

  releaseDomains(ctx, a, accounts.auction.key, sale.winner);
  const fee = paySale(ctx, { ...accounts, escrow: accounts.auction }, sale.price, config.feeBps);
  const now = ctx.clock.unixTimestamp;
  emit(ctx, {
    name: 'AuctionSettled',
    data: {
      auction: accounts.auction.key,
      seller: a.seller,
      winner: sale.winner,
      price: sale.price,
      fee,
      timestamp: now,
    },
  });
  return {
    ...a,
    state: 'settled',
    winner: sale.winner,
    finalPrice: sale.price,
    reserveOutcome: a.reserveCommitment ? 'met' : a.reserveOutcome,
    settledAt: now,
  };
}
