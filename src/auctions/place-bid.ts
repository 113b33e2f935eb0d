/**
 * POST /auctions/:id/bid: decides the bid with the program's own rule (`checkBid`) at the chain time
 * of the same read as the auction, then returns the unsigned place_bid transaction for the bidder.
 */
import { PublicKey } from '@solana/web3.js';
import { type AuctionWithAddress, placeBidInstruction } from '../chain/auction-client.js';
import type { TransactionVersion } from '../chain/transaction-builder.js';
import type { Address } from '../core/address.js';
import { type BidCheck, checkBid, minimumNextBid } from '../core/auction-rules/index.js';
import { AppError } from '../core/errors.js';
import { formatSol, lamportsToSol, MoneyError } from '../core/money.js';
import type { AuctionDeps } from './auction-deps.js';
import { chainMs } from './auction-view.js';
import { CONFIG_ADDRESS, decodeConfig, lamportsOfAccount, readAuction } from './chain-reads.js';
import type { BidRules } from './create-auction.js';
import { invalidField, lamportsOf } from './field-errors.js';
import { SIGNATURE_FEE_LAMPORTS, type WalletTransaction, walletTransaction } from './wallet-transaction.js';

export interface PlaceBidInput {
  readonly auctionId: Address;
  /** The wallet tied to the calling key: the bidder, fee payer and signer. */
  readonly bidder: Address;
  /** SOL; for dutch the most the bidder will pay. */
  readonly bidAmount: number;
  readonly txVersion?: TransactionVersion | undefined;
}

export interface PreparedBid extends WalletTransaction {
  readonly auctionId: Address;
  readonly bidder: Address;
  readonly bidAmount: number;
  /** SOL: what the next bid must carry once this one lands (dutch/buy_now: this bid closes the auction). */
  readonly nextMinimumBid: number;
  /** Chain time the bid was checked at, Unix ms. */
  readonly timestamp: number;
  readonly rules: BidRules;
}

const iso = (chainSeconds: bigint) => new Date(chainMs(chainSeconds)).toISOString();

function auctionClosed(status: string, message: string): AppError<'AUCTION_ENDED'> {
  return new AppError('AUCTION_ENDED', message, { details: { status } });
}

/** The rejection as the API reports it: which state the auction is in, or the minimum. */
function bidRejection(a: AuctionWithAddress, check: Extract<BidCheck, { ok: false }>): AppError {
  switch (check.reason) {
    case 'not_active':
      if (a.state === 'cancelled')
        return auctionClosed('cancelled', 'Auction was cancelled by the seller: bids are closed');
      return a.winner
        ? auctionClosed(
            'sold',
            `Auction is sold: it was settled at ${iso(a.settledAt)} and takes no more bids`,
          )
        : auctionClosed('ended', `Auction has ended and was settled at ${iso(a.settledAt)}: bids are closed`);
    case 'not_started':
      return auctionClosed('upcoming', `Auction has not started yet: bidding opens at ${iso(a.startTs)}`);
    case 'ended':
      return auctionClosed(
        'ended',
        `Auction ended at ${iso(a.endTs)}: bidding is closed; settle it with POST /auctions/${a.address}/settle`,
      );
    case 'seller_bid':
      return new AppError('INVALID_REQUEST', 'the seller cannot bid on its own auction', {
        details: { reason: 'seller_bid' },
      });
    case 'too_low':
      if (check.minimum === undefined) {
        return new AppError('BID_TOO_LOW', 'Bid too low: no higher bid is possible on this auction', {
          details: { minimumBid: Number.POSITIVE_INFINITY },
        });
      }
      return new AppError('BID_TOO_LOW', `Bid too low: minimum bid is ${formatSol(check.minimum)} SOL`, {
        details: { minimumBid: lamportsToSol(check.minimum) },
      });
  }
}

/** What the next bid must carry once this one lands at `now` (English: this bid + increment). */
function followingMinimum(a: AuctionWithAddress, price: bigint, bidder: Address, now: bigint): bigint {
  if (a.auctionType === 'dutch' || a.auctionType === 'buy_now') return price;
  try {
    return minimumNextBid({ ...a, topBidder: bidder, topBid: price }, now);
  } catch (e) {
    if (e instanceof MoneyError) return price;
    throw e;
  }
}

export async function placeBid(deps: AuctionDeps, input: PlaceBidInput): Promise<PreparedBid> {
  const amount = lamportsOf('bidAmount', input.bidAmount);
  if (amount === 0n) throw invalidField('bidAmount', 'must be greater than 0');
  const bidderKey = new PublicKey(input.bidder);
  const { auction, extras, now } = await readAuction(deps, input.auctionId, [bidderKey, CONFIG_ADDRESS]);

  const check = checkBid(auction, { bidder: input.bidder, amount, now });
  if (!check.ok) throw bidRejection(auction, check);
  const balance = lamportsOfAccount(extras[0]);
  const required = check.price + SIGNATURE_FEE_LAMPORTS;
  if (balance < required) {
    throw new AppError(
      'INVALID_REQUEST',
      `insufficient balance for bidAmount: the bidder wallet holds ${formatSol(balance)} SOL and needs ${formatSol(required)} SOL (bid ${formatSol(check.price)} + fee ${formatSol(SIGNATURE_FEE_LAMPORTS)})`,
      {
        details: {
          field: 'bidAmount',
          reason: 'insufficient_balance',
          balance: lamportsToSol(balance),
          required: lamportsToSol(required),
        },
      },
    );
  }
  const config = decodeConfig(extras[1]);

  const instruction = placeBidInstruction({ bidder: bidderKey, auction, amount, treasury: config.treasury });
  const tx = await walletTransaction(deps, bidderKey, [instruction], input.txVersion);
  return {
    ...tx,
    auctionId: input.auctionId,
    bidder: input.bidder,
    bidAmount: input.bidAmount,
    nextMinimumBid: lamportsToSol(followingMinimum(auction, check.price, input.bidder, now)),
    timestamp: chainMs(now),
    rules: {
      minimumBid: lamportsToSol(minimumNextBid(auction, now)),
      snipeWindowSeconds: auction.snipeWindowSeconds,
      snipeExtensionSeconds: auction.snipeExtensionSeconds,
      endTime: chainMs(auction.endTs),
      serverTime: chainMs(now),
    },
  };
}
