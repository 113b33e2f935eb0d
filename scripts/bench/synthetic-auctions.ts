/**
 * Synthetic auctions for loading the index directly (bench:api): a seeded, realistic mix of the
 * four types, sellers, on-chain states and timings around a given chain time, bid counts that fit
 * the prices, some multi-domain listings and off-chain titles.
 */
import { createHash } from 'node:crypto';
import { type Address, addressFromBytes } from '../../src/core/address.js';
import type { AuctionAccount, AuctionType } from '../../src/core/program/auction-account.js';
import type { AuctionMetadata } from '../../src/indexer/auction-document.js';
import type { AccountUpsert } from '../../src/indexer/auction-index.js';

const SOL = 1_000_000_000n;
const HOUR = 3_600;
const DAY = 86_400;

/** mulberry32: a small seeded PRNG, so that two runs index the same auctions. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A deterministic address from a label (not a real key: nobody signs for it). */
export const syntheticAddress = (label: string): Address =>
  addressFromBytes(createHash('sha256').update(label).digest());

export const syntheticSellers = (count: number): Address[] =>
  Array.from({ length: count }, (_, i) => syntheticAddress(`bench-seller-${i}`));

export interface SyntheticAuction extends AccountUpsert {
  readonly metadata: AuctionMetadata | null;
}

const TYPES: readonly AuctionType[] = ['standard', 'standard', 'standard', 'dutch', 'reserve', 'buy_now'];
const WORDS = ['crypto', 'defi', 'gold', 'alpha', 'moon', 'pixel', 'vault', 'nova', 'solar', 'zen'];

/** Auction number `i` (deterministic in `i` and `chainNow`). */
export function syntheticAuction(i: number, sellers: readonly Address[], chainNow: bigint): SyntheticAuction {
  const random = seededRandom(i * 7_919 + 17);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo));
  const auctionType = pick(TYPES);
  const seller = sellers[Math.floor(random() ** 2 * sellers.length)]!; // a few sellers list a lot

  // Timing: 20 % settled, 3 % cancelled, else on chain Active: upcoming, live, or ended unsettled.
  const roll = random();
  const duration = BigInt(pick([HOUR, 6 * HOUR, DAY, 3 * DAY, 7 * DAY]));
  let state: AuctionAccount['state'] = 'active';
  let startTs: bigint;
  if (roll < 0.2) {
    state = 'settled';
    startTs = chainNow - duration - BigInt(between(60, 20 * DAY));
  } else if (roll < 0.23) {
    state = 'cancelled';
    startTs = chainNow - BigInt(between(60, 10 * DAY));
  } else if (roll < 0.38) {
    startTs = chainNow + BigInt(between(60, 7 * DAY));
  } else if (roll < 0.42) {
    startTs = chainNow - duration - BigInt(between(1, HOUR));
  } else {
    startTs = chainNow - BigInt(between(0, Number(duration) - 60));
  }
  const endTs = startTs + duration;
  const createdAt = startTs - BigInt(between(0, DAY));

  const startingPrice = BigInt(between(1, 500)) * (SOL / 10n);
  const minIncrement = startingPrice / 20n + 1n;
  const started = startTs <= chainNow && state !== 'cancelled';
  let bidCount = 0;
  if (started && (auctionType === 'standard' || auctionType === 'reserve'))
    bidCount = Math.floor(random() ** 3 * 40);
  if (started && (auctionType === 'dutch' || auctionType === 'buy_now') && state === 'settled')
    bidCount = random() < 0.7 ? 1 : 0;
  const topBidder = bidCount > 0 ? syntheticAddress(`bench-bidder-${between(0, 50_000)}`) : null;
  const buyNowPrice = auctionType === 'buy_now' ? startingPrice : 0n;
  const dutchFloor = auctionType === 'dutch' ? startingPrice / 10n : 0n;
  const topBid =
    bidCount === 0
      ? 0n
      : auctionType === 'buy_now'
        ? buyNowPrice
        : auctionType === 'dutch'
          ? (startingPrice + dutchFloor) / 2n
          : startingPrice + BigInt(bidCount - 1) * minIncrement;
  const sold = state === 'settled' && topBidder !== null;

  const domainCount = random() < 0.9 ? 1 : between(2, 4);
  const domains = Array.from({ length: domainCount }, (_, d) => ({
    nameAccount: syntheticAddress(`bench-name-${i}-${d}`),
    name: d === 0 ? `name${i}.sol` : `${pick(WORDS)}${i}x${d}.sol`,
  }));
  const account: AuctionAccount = {
    version: 1,
    bump: 255,
    auctionType,
    state,
    seller,
    nonce: BigInt(i),
    startingPrice,
    minIncrement,
    buyNowPrice,
    dutchFloor,
    reserveCommitment:
      auctionType === 'reserve' ? createHash('sha256').update(`reserve-${i}`).digest() : null,
    startTs,
    endTs,
    snipeEnabled: random() < 0.3,
    snipeWindowSeconds: 60,
    snipeExtensionSeconds: 300,
    topBidder,
    topBid,
    bidCount,
    winner: sold ? topBidder : null,
    finalPrice: sold ? topBid : 0n,
    reserveOutcome: auctionType === 'reserve' && state === 'settled' ? pick(['met', 'not_met']) : 'unknown',
    createdAt,
    settledAt: state === 'settled' ? endTs + BigInt(between(1, 120)) : 0n,
    domains,
  };
  const metadata =
    random() < 0.1
      ? {
          title: `${pick(WORDS)} ${pick(WORDS)} collection ${i}`,
          category: pick(['premium', 'short', 'words']),
        }
      : null;
  return { address: syntheticAddress(`bench-auction-${i}`), account, slot: 1, metadata };
}

/** The same auction after one more bid (for the write trickle that runs beside the reads). */
export function withOneMoreBid(a: SyntheticAuction, bidder: Address): SyntheticAuction {
  const { account } = a;
  const topBid = account.bidCount === 0 ? account.startingPrice : account.topBid + account.minIncrement;
  return {
    ...a,
    slot: a.slot + 1,
    account: { ...account, bidCount: account.bidCount + 1, topBid, topBidder: bidder },
  };
}
