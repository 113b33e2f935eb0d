/**
 * place_bid(amount): the hot path. Moves the price into escrow, refunds the previous top bidder from
 * escrow in the same instruction, applies the snipe rule, and for dutch/buy_now sells at once.
 *
 * Accounts: 0 bidder (signer, writable) · 1 auction PDA (writable) · 2 previous top bidder (writable;
 * the bidder itself when there is none) · 3 seller (writable) · 4 treasury (writable) · 5 config PDA ·
 * 6 system program · 7 name program · 8.. the auction's name accounts (writable), in its domain order.
 * Accounts 4, 5, 7 and 8.. are read only when the bid settles the auction (dutch, buy_now).
 */
import { applySnipeRule, type BidCheck, checkBid } from '../core/auction-rules/index.js';
import type { AuctionAccount } from '../core/program/auction-account.js';
import { NAME_PROGRAM_ID, SYSTEM_PROGRAM_ID } from '../core/program/ids.js';
import type { PlaceBidArgs } from '../core/program/instructions.js';
import type { InvokeContext, ProgramError } from '../localnet/runtime/program-abi.js';
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
import { transferLamports } from './cpi.js';
import { emit } from './emit.js';
import { auctionError } from './errors.js';
import { payFromEscrow } from './escrow.js';
import { completeSale } from './sale.js';

const NAME_ACCOUNTS_START = 8;

export function placeBid(ctx: InvokeContext, args: PlaceBidArgs): void {
  const bidder = accountAt(ctx, 0, 'bidder');
  const auctionAccount = accountAt(ctx, 1, 'auction');
  const previousBidder = accountAt(ctx, 2, 'previous top bidder');
  const seller = accountAt(ctx, 3, 'seller');
  requireSigner(bidder, 'bidder');
  requireWritable(bidder, 'bidder');
  requireProgram(accountAt(ctx, 6, 'system program'), SYSTEM_PROGRAM_ID, 'system program');
  const a = loadAuction(ctx, auctionAccount);

  const now = ctx.clock.unixTimestamp;
  const check = checkBid(a, { bidder: bidder.key, amount: args.amount, now });
  if (!check.ok) throw bidRejected(check);
  requireKey(previousBidder, a.topBidder ?? bidder.key, 'previous top bidder');
  requireWritable(previousBidder, 'previous top bidder');
  requireKey(seller, a.seller, 'seller');

  transferLamports(ctx, bidder.key, auctionAccount.key, check.price);
  payFromEscrow(ctx, auctionAccount, previousBidder, a.topBid);

  const snipe = applySnipeRule(a, now);
  let next: AuctionAccount = {
    ...a,
    topBidder: bidder.key,
    topBid: check.price,
    bidCount: a.bidCount + 1,
    endTs: snipe.newEndTs,
  };
  emit(ctx, {
    name: 'BidPlaced',
    data: {
      auction: auctionAccount.key,
      bidder: bidder.key,
      amount: check.price,
      previousBidder: a.topBidder,
      previousAmount: a.topBid,
      bidCount: next.bidCount,
      endTs: next.endTs,
      timestamp: now,
    },
  });
  if (snipe.extended) {
    emit(ctx, {
      name: 'AuctionExtended',
      data: {
        auction: auctionAccount.key,
        bidder: bidder.key,
        amount: check.price,
        previousEndTs: snipe.previousEndTs,
        newEndTs: snipe.newEndTs,
      },
    });
  }

  if (check.settlesNow) {
    const config = loadConfig(ctx, accountAt(ctx, 5, 'config'));
    requireProgram(accountAt(ctx, 7, 'name program'), NAME_PROGRAM_ID, 'name program');
    const accounts = {
      auction: auctionAccount,
      seller,
      treasury: accountAt(ctx, 4, 'treasury'),
      nameAccounts: accountsFrom(ctx, NAME_ACCOUNTS_START, a.domains.length, 'name'),
    };
    next = completeSale(ctx, next, accounts, config, { winner: bidder.key, price: check.price });
  }
  storeAuction(auctionAccount, next);
}

function bidRejected(check: Extract<BidCheck, { ok: false }>): ProgramError {
  switch (check.reason) {
    case 'not_active':
      return auctionError('AuctionNotActive');
    case 'not_started':
      return auctionError('AuctionNotStarted');
    case 'ended':
      return auctionError('AuctionEnded');
    case 'seller_bid':
      return auctionError('SellerCannotBid');
    case 'too_low':
      return auctionError(
        'BidTooLow',
        check.minimum === undefined ? undefined : `minimum ${check.minimum} lamports`,
      );
  }
}
