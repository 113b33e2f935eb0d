/**
 * cancel: the seller withdraws an auction nobody has bid on; the domains go back to the seller.
 *
 * Accounts: 0 seller (signer, writable) · 1 auction PDA (writable) · 2 name program ·
 * 3.. the auction's name accounts (writable), in its domain order.
 */
import { NAME_PROGRAM_ID } from '../core/program/ids.js';
import type { CancelArgs } from '../core/program/instructions.js';
import type { InvokeContext } from '../localnet/runtime/program-abi.js';
import {
  accountAt,
  accountsFrom,
  loadAuction,
  requireKey,
  requireProgram,
  requireSigner,
  storeAuction,
} from './accounts.js';
import { emit } from './emit.js';
import { auctionError } from './errors.js';
import { releaseDomains, requireEscrowedNameAccounts } from './escrow.js';

const NAME_ACCOUNTS_START = 3;

export function cancel(ctx: InvokeContext, _args: CancelArgs): void {
  const seller = accountAt(ctx, 0, 'seller');
  const auctionAccount = accountAt(ctx, 1, 'auction');
  requireSigner(seller, 'seller');
  requireProgram(accountAt(ctx, 2, 'name program'), NAME_PROGRAM_ID, 'name program');
  const a = loadAuction(ctx, auctionAccount);
  requireKey(seller, a.seller, 'seller');
  if (a.state !== 'active') throw auctionError('AuctionNotActive');
  if (a.bidCount > 0) throw auctionError('AuctionHasBids', `${a.bidCount} bid(s)`);
  requireEscrowedNameAccounts(a, accountsFrom(ctx, NAME_ACCOUNTS_START, a.domains.length, 'name'));

  releaseDomains(ctx, a, auctionAccount.key, a.seller);
  const now = ctx.clock.unixTimestamp;
  storeAuction(auctionAccount, { ...a, state: 'cancelled', settledAt: now });
  emit(ctx, {
    name: 'AuctionCancelled',
    data: { auction: auctionAccount.key, seller: a.seller, timestamp: now },
  });
}
