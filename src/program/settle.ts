/**
 * settle(reveal?): the keeper closes an ended auction. Sold → domains to the winner, price minus fee
 * to the seller, fee to the treasury. No bids or reserve not met → domains back to the seller and
 * the top bid refunded. Reserve auctions with bids need the reveal that opens the commitment.
 *
 * Accounts: 0 keeper (signer) · 1 auction PDA (writable) · 2 seller (writable) · 3 top bidder
 * (writable; the seller when there is none) · 4 treasury (writable) · 5 config PDA · 6 name program ·
 * 7.. the auction's name accounts (writable), in its domain order.
 */
import { settlementOutcome } from '../core/auction-rules/index.js';
import type { AuctionAccount } from '../core/program/auction-account.js';
import { NAME_PROGRAM_ID } from '../core/program/ids.js';
import type { ReserveReveal, SettleArgs } from '../core/program/instructions.js';
import { reserveCommitmentMatches } from '../core/reserve-commitment.js';
import type { InvokeContext } from '../localnet/runtime/program-abi.js';
import {
  accountAt,
  accountsFrom,
  loadAuction,
  loadConfig,
  requireKey,
  requireProgram,
  requireSigner,
  requireWritable,
  storeAuction,
} from './accounts.js';
import { emit } from './emit.js';
import { auctionError } from './errors.js';
import { payFromEscrow, releaseDomains, requireEscrowedNameAccounts } from './escrow.js';
import { completeSale } from './sale.js';

const NAME_ACCOUNTS_START = 7;

export function settle(ctx: InvokeContext, args: SettleArgs): void {
  const keeper = accountAt(ctx, 0, 'keeper');
  const auctionAccount = accountAt(ctx, 1, 'auction');
  const seller = accountAt(ctx, 2, 'seller');
  const topBidder = accountAt(ctx, 3, 'top bidder');
  const treasury = accountAt(ctx, 4, 'treasury');
  requireSigner(keeper, 'keeper');
  const config = loadConfig(ctx, accountAt(ctx, 5, 'config'));
  if (keeper.key !== config.keeper)
    throw auctionError('UnauthorizedKeeper', `${keeper.key} is not the keeper`);
  requireProgram(accountAt(ctx, 6, 'name program'), NAME_PROGRAM_ID, 'name program');
  const a = loadAuction(ctx, auctionAccount);
  const nameAccounts = accountsFrom(ctx, NAME_ACCOUNTS_START, a.domains.length, 'name');

  const now = ctx.clock.unixTimestamp;
  const outcome = settlementOutcome(a, now, revealedReserve(a, args.reveal));
  switch (outcome.kind) {
    case 'not_active':
      throw auctionError('AuctionNotActive');
    case 'not_ended':
      throw auctionError('AuctionNotEnded', `ends at ${a.endTs}, chain time ${now}`);
    case 'reserve_not_revealed':
      throw auctionError('ReserveRevealMismatch', 'the auction has bids: reveal the reserve');
    case 'sold': {
      requireKey(seller, a.seller, 'seller');
      requireKey(topBidder, outcome.winner, 'top bidder');
      const accounts = { auction: auctionAccount, seller, treasury, nameAccounts };
      storeAuction(auctionAccount, completeSale(ctx, a, accounts, config, outcome));
      return;
    }
    case 'no_bids':
    case 'reserve_not_met': {
      requireKey(seller, a.seller, 'seller');
      requireWritable(seller, 'seller');
      requireKey(topBidder, a.topBidder ?? a.seller, 'top bidder');
      requireWritable(topBidder, 'top bidder');
      requireEscrowedNameAccounts(a, nameAccounts);
      releaseDomains(ctx, a, auctionAccount.key, a.seller);
      payFromEscrow(ctx, auctionAccount, topBidder, a.topBid);
      const hasReserve = a.reserveCommitment !== null;
      if (hasReserve) {
        emit(ctx, {
          name: 'ReserveNotMet',
          data: { auction: auctionAccount.key, topBidder: a.topBidder, topBid: a.topBid },
        });
      }
      emit(ctx, {
        name: 'AuctionSettled',
        data: {
          auction: auctionAccount.key,
          seller: a.seller,
          winner: null,
          price: 0n,
          fee: 0n,
          timestamp: now,
        },
      });
      const unsold: AuctionAccount = {
        ...a,
        state: 'settled',
        reserveOutcome: hasReserve ? 'not_met' : a.reserveOutcome,
        settledAt: now,
      };
      storeAuction(auctionAccount, unsold);
      return;
    }
  }
}

/**
 * The revealed reserve once it opens the commitment. A reveal is refused on auctions without a
 * reserve; on a reserve auction without bids it may be omitted (there is nothing to compare).
 */
function revealedReserve(a: AuctionAccount, reveal: ReserveReveal | null): bigint | null {
  if (reveal === null) return null;
  if (a.reserveCommitment === null) throw auctionError('ReserveRevealMismatch', 'the auction has no reserve');
  if (!reserveCommitmentMatches(a.reserveCommitment, reveal.reserve, reveal.salt)) {
    throw auctionError('ReserveRevealMismatch');
  }
  return reveal.reserve;
}
