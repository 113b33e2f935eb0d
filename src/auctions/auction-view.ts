/**
 * The auction as the API shows it (SPEC's list item and detail, plus API.md's additions): SOL
 * numbers, Unix milliseconds, and everything that depends on time computed at chain time `now`.
 */
import type { Address } from '../core/address.js';
import {
  type AuctionStatus,
  auctionStatus,
  minimumNextBid,
  statusChangesAt,
} from '../core/auction-rules/index.js';
import { lamportsToSol, MoneyError } from '../core/money.js';
import type { AuctionAccount, AuctionType } from '../core/program/auction-account.js';
import { currentPrice, type EffectiveMetadata } from '../indexer/auction-document.js';
import type { IndexedBid } from '../indexer/auction-index.js';

export interface AuctionListItemView {
  readonly id: string;
  readonly seller: string;
  readonly domains: string[];
  readonly type: AuctionType;
  readonly status: AuctionStatus;
  readonly startingPrice: number;
  readonly currentPrice: number;
  readonly minBidIncrement: number;
  readonly buyNowPrice: number | null;
  readonly dutchEndPrice: number | null;
  readonly topBidder: string | null;
  readonly totalBids: number;
  readonly startTime: number;
  readonly endTime: number;
  readonly snipeProtectionEnabled: boolean;
  readonly snipeExtensionSeconds: number;
  readonly featured: boolean;
  readonly category: string;
  readonly tags: string[];
  readonly createdAt: number;
  readonly title: string;
  readonly settled: boolean;
  readonly winner: string | null;
  readonly finalPrice: number | null;
  readonly reserveMet: boolean | null;
}

export interface BidView {
  readonly bidder: string;
  readonly amount: number;
  readonly timestamp: number;
  readonly transactionId: string;
}

export interface AuctionDetailView extends AuctionListItemView {
  readonly reservePrice: number | null;
  readonly bids: BidView[];
  readonly snipeWindowSeconds: number;
  readonly nextMinimumBid: number | null;
  readonly serverTime: number;
}

export interface AuctionViewInput {
  readonly address: Address;
  readonly account: AuctionAccount;
  readonly metadata: EffectiveMetadata;
  /** Chain time, Unix seconds. */
  readonly now: bigint;
  /** The hidden reserve when the service knows it (lamports); never shown to non-sellers. */
  readonly knownReserve: bigint | null;
}

/** What a list item's view is made of, apart from chain time. */
export type ListedAuction = Omit<AuctionViewInput, 'now'>;

export interface AuctionDetailInput extends AuctionViewInput {
  readonly bids: readonly IndexedBid[];
  /** The wallet of the calling key, if any: the seller sees its reserve. */
  readonly viewerWallet: string | null;
}

/** Chain seconds → Unix ms. */
export const chainMs = (seconds: bigint): number => Number(seconds) * 1000;

const solOrNull = (lamports: bigint, present: boolean) => (present ? lamportsToSol(lamports) : null);

/**
 * Whether the hidden reserve is met: null without a reserve; the on-chain outcome once settled;
 * while open, the top bid against the reserve the service holds (the answer bidders act on).
 */
export function reserveMet(a: AuctionAccount, knownReserve: bigint | null): boolean | null {
  if (a.reserveCommitment === null) return null;
  if (a.reserveOutcome !== 'unknown') return a.reserveOutcome === 'met';
  if (knownReserve === null) return null;
  return a.topBidder !== null && a.topBid >= knownReserve;
}

/** The minimum a bid must carry now, in lamports; null when no bid can be placed any more. */
export function nextMinimumBid(a: AuctionAccount, now: bigint): bigint | null {
  const status = auctionStatus(a, now);
  if (status !== 'active' && status !== 'upcoming') return null;
  try {
    return minimumNextBid(a, now);
  } catch (e) {
    if (e instanceof MoneyError) return null;
    throw e;
  }
}

/**
 * The first chain second after `now` at which `auctionListItemView` of `a` may differ (its status
 * or its price), or null when only a new account state can change it: a rendered list page stays
 * valid until the earliest of its items'.
 */
export function listItemViewChangesAt(a: AuctionAccount, now: bigint): bigint | null {
  const statusChange = statusChangesAt(a, now);
  // A live Dutch price falls every second between its start and its end.
  const falling =
    a.auctionType === 'dutch' && a.state === 'active' && a.dutchFloor < a.startingPrice && now >= a.startTs;
  return falling && statusChange !== null ? now + 1n : statusChange;
}

export function auctionListItemView({
  address,
  account: a,
  metadata,
  now,
  knownReserve,
}: AuctionViewInput): AuctionListItemView {
  return {
    id: address,
    seller: a.seller,
    domains: a.domains.map((d) => d.name),
    type: a.auctionType,
    status: auctionStatus(a, now),
    startingPrice: lamportsToSol(a.startingPrice),
    currentPrice: lamportsToSol(currentPrice(a, now)),
    minBidIncrement: lamportsToSol(a.minIncrement),
    buyNowPrice: solOrNull(a.buyNowPrice, a.auctionType === 'buy_now'),
    dutchEndPrice: solOrNull(a.dutchFloor, a.auctionType === 'dutch'),
    topBidder: a.topBidder,
    totalBids: a.bidCount,
    startTime: chainMs(a.startTs),
    endTime: chainMs(a.endTs),
    snipeProtectionEnabled: a.snipeEnabled,
    snipeExtensionSeconds: a.snipeExtensionSeconds,
    featured: metadata.featured,
    category: metadata.category,
    tags: [...metadata.tags],
    createdAt: chainMs(a.createdAt),
    title: metadata.title,
    settled: a.state === 'settled',
    winner: a.winner,
    finalPrice: solOrNull(a.finalPrice, a.winner !== null),
    reserveMet: reserveMet(a, knownReserve),
  };
}

export function auctionDetailView(input: AuctionDetailInput): AuctionDetailView {
  const { account: a, now, knownReserve } = input;
  const sellerIsViewing = input.viewerWallet === a.seller;
  const minimum = nextMinimumBid(a, now);
  return {
    ...auctionListItemView(input),
    reservePrice:
      sellerIsViewing && a.reserveCommitment !== null && knownReserve !== null
        ? lamportsToSol(knownReserve)
        : null,
    bids: input.bids.map((b) => ({
      bidder: b.bidder,
      amount: lamportsToSol(b.amount),
      timestamp: b.timestamp,
      transactionId: b.transactionId,
    })),
    snipeWindowSeconds: a.snipeWindowSeconds,
    nextMinimumBid: minimum === null ? null : lamportsToSol(minimum),
    serverTime: chainMs(now),
  };
}
