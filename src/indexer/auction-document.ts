import type { Address } from '../core/address.js';
import { dutchPrice } from '../core/auction-rules/dutch-price.js';
import type { AuctionAccount } from '../core/program/auction-account.js';

/** Off-chain fields of an auction, set by the create route; each may be absent. */
export interface AuctionMetadata {
  readonly title?: string;
  readonly category?: string;
  readonly tags?: readonly string[];
  readonly featured?: boolean;
}

/** Metadata with its defaults applied: the title defaults to the domains joined with ", ". */
export interface EffectiveMetadata {
  readonly title: string;
  readonly category: string;
  readonly tags: readonly string[];
  readonly featured: boolean;
}

export const DEFAULT_CATEGORY = 'general';

export function effectiveMetadata(
  meta: AuctionMetadata | null,
  domains: AuctionAccount['domains'],
): EffectiveMetadata {
  return {
    title: meta?.title || domains.map((d) => d.name).join(', '),
    category: meta?.category || DEFAULT_CATEGORY,
    tags: meta?.tags ?? [],
    featured: meta?.featured ?? false,
  };
}

export interface AuctionDocument {
  readonly address: Address;
  readonly account: AuctionAccount;
  /** Slot at which the account was read. */
  readonly slot: number;
}

/** The stored JSON: the account with amounts and times as decimal strings, the commitment in hex. */
type StoredDocument = {
  readonly [K in keyof AuctionAccount]: AuctionAccount[K] extends bigint
    ? string
    : K extends 'reserveCommitment'
      ? string | null
      : AuctionAccount[K];
} & { readonly address: Address; readonly slot: number };

export function encodeAuctionDocument({ address, account: a, slot }: AuctionDocument): string {
  const stored: StoredDocument = {
    ...a,
    nonce: a.nonce.toString(),
    startingPrice: a.startingPrice.toString(),
    minIncrement: a.minIncrement.toString(),
    buyNowPrice: a.buyNowPrice.toString(),
    dutchFloor: a.dutchFloor.toString(),
    reserveCommitment: a.reserveCommitment ? Buffer.from(a.reserveCommitment).toString('hex') : null,
    startTs: a.startTs.toString(),
    endTs: a.endTs.toString(),
    topBid: a.topBid.toString(),
    finalPrice: a.finalPrice.toString(),
    createdAt: a.createdAt.toString(),
    settledAt: a.settledAt.toString(),
    address,
    slot,
  };
  return JSON.stringify(stored);
}

// Field by field rather than spread: this runs for every item of every GET /auctions page.
export function decodeAuctionDocument(json: string): AuctionDocument {
  const d = JSON.parse(json) as StoredDocument;
  return {
    address: d.address,
    slot: d.slot,
    account: {
      version: d.version,
      bump: d.bump,
      auctionType: d.auctionType,
      state: d.state,
      seller: d.seller,
      nonce: BigInt(d.nonce),
      startingPrice: BigInt(d.startingPrice),
      minIncrement: BigInt(d.minIncrement),
      buyNowPrice: BigInt(d.buyNowPrice),
      dutchFloor: BigInt(d.dutchFloor),
      reserveCommitment:
        d.reserveCommitment === null ? null : new Uint8Array(Buffer.from(d.reserveCommitment, 'hex')),
      startTs: BigInt(d.startTs),
      endTs: BigInt(d.endTs),
      snipeEnabled: d.snipeEnabled,
      snipeWindowSeconds: d.snipeWindowSeconds,
      snipeExtensionSeconds: d.snipeExtensionSeconds,
      topBidder: d.topBidder,
      topBid: BigInt(d.topBid),
      bidCount: d.bidCount,
      winner: d.winner,
      finalPrice: BigInt(d.finalPrice),
      reserveOutcome: d.reserveOutcome,
      createdAt: BigInt(d.createdAt),
      settledAt: BigInt(d.settledAt),
      domains: d.domains,
    },
  };
}

/**
 * The list item's `currentPrice` at chain time `now`, in lamports. Dutch: the falling price while
 * the auction is live, the price paid once sold, else the price when it closed. Buy-now: the
 * buy-now price. English: the top bid, or the starting price before the first bid.
 */
export function currentPrice(a: AuctionAccount, now: bigint): bigint {
  switch (a.auctionType) {
    case 'dutch':
      if (a.state === 'active') return dutchPrice(a, now);
      return a.topBidder ? a.topBid : dutchPrice(a, a.settledAt);
    case 'buy_now':
      return a.buyNowPrice;
    case 'standard':
    case 'reserve':
      return a.topBidder ? a.topBid : a.startingPrice;
  }
}

/**
 * The price the index sorts by while the auction is upcoming, and after it (ended, settled or
 * cancelled). Only a live Dutch auction has no fixed price: the index scores those at read time.
 */
export function sortPrices(a: AuctionAccount): { readonly upcoming: bigint; readonly otherwise: bigint } {
  if (a.auctionType === 'dutch' && a.state === 'active')
    return { upcoming: dutchPrice(a, a.startTs), otherwise: dutchPrice(a, a.endTs) };
  const price = currentPrice(a, a.startTs);
  return { upcoming: price, otherwise: price };
}
