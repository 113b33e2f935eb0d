import { type Address, addressFromBytes } from '../../../src/core/address.js';
import type { AuctionAccount } from '../../../src/core/program/auction-account.js';

export const addressOf = (seed: number): Address => addressFromBytes(new Uint8Array(32).fill(seed));

export const SELLER = addressOf(1);
export const ALICE = addressOf(2);
export const BOB = addressOf(3);

export const SOL = 1_000_000_000n;
export const START = 1_700_000_000n;
export const END = START + 3_600n;

/** A live standard auction with no bids; override what a test is about. */
export function makeAuction(overrides: Partial<AuctionAccount> = {}): AuctionAccount {
  return {
    version: 1,
    bump: 255,
    auctionType: 'standard',
    state: 'active',
    seller: SELLER,
    nonce: 7n,
    startingPrice: 2n * SOL,
    minIncrement: SOL / 10n,
    buyNowPrice: 0n,
    dutchFloor: 0n,
    reserveCommitment: null,
    startTs: START,
    endTs: END,
    snipeEnabled: false,
    snipeWindowSeconds: 60,
    snipeExtensionSeconds: 300,
    topBidder: null,
    topBid: 0n,
    bidCount: 0,
    winner: null,
    finalPrice: 0n,
    reserveOutcome: 'unknown',
    createdAt: START,
    settledAt: 0n,
    domains: [{ nameAccount: addressOf(9), name: 'alice.sol' }],
    ...overrides,
  };
}

export const withTopBid = (a: AuctionAccount, bidder: Address, amount: bigint): AuctionAccount => ({
  ...a,
  topBidder: bidder,
  topBid: amount,
  bidCount: a.bidCount + 1,
});
