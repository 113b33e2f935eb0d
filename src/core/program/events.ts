import { type Address, addressFromBytes, addressToBytes } from '../address.js';
import { BorshError, BorshReader, BorshWriter } from '../codec/borsh.js';
import {
  AUCTION_TYPES,
  type AuctionType,
  MAX_DOMAIN_NAME_BYTES,
  MAX_DOMAINS_PER_AUCTION,
} from './auction-account.js';
import { eventDiscriminator, hasDiscriminator } from './discriminator.js';

/**
 * Events the auction program emits as `Program data: <base64(disc ‖ borsh)>` (Anchor `emit!`).
 * Amounts are lamports, times chain Unix seconds.
 */
export interface AuctionCreatedEvent {
  readonly auction: Address;
  readonly seller: Address;
  readonly auctionType: AuctionType;
  readonly domains: readonly string[];
  readonly startingPrice: bigint;
  readonly minIncrement: bigint;
  readonly buyNowPrice: bigint;
  readonly dutchFloor: bigint;
  readonly hasReserve: boolean;
  readonly startTs: bigint;
  readonly endTs: bigint;
  readonly snipeEnabled: boolean;
  readonly snipeWindowSeconds: number;
  readonly snipeExtensionSeconds: number;
  readonly timestamp: bigint;
}
export interface BidPlacedEvent {
  readonly auction: Address;
  readonly bidder: Address;
  readonly amount: bigint;
  readonly previousBidder: Address | null;
  readonly previousAmount: bigint;
  readonly bidCount: number;
  readonly endTs: bigint;
  readonly timestamp: bigint;
}
export interface AuctionExtendedEvent {
  readonly auction: Address;
  readonly bidder: Address;
  readonly amount: bigint;
  readonly previousEndTs: bigint;
  readonly newEndTs: bigint;
}
export interface AuctionSettledEvent {
  readonly auction: Address;
  readonly seller: Address;
  /** null when there were no bids or the reserve was not met. */
  readonly winner: Address | null;
  readonly price: bigint;
  readonly fee: bigint;
  readonly timestamp: bigint;
}
export interface ReserveNotMetEvent {
  readonly auction: Address;
  readonly topBidder: Address | null;
  readonly topBid: bigint;
}
export interface AuctionCancelledEvent {
  readonly auction: Address;
  readonly seller: Address;
  readonly timestamp: bigint;
}

export type AuctionEvent =
  | { readonly name: 'AuctionCreated'; readonly data: AuctionCreatedEvent }
  | { readonly name: 'BidPlaced'; readonly data: BidPlacedEvent }
  | { readonly name: 'AuctionExtended'; readonly data: AuctionExtendedEvent }
  | { readonly name: 'AuctionSettled'; readonly data: AuctionSettledEvent }
  | { readonly name: 'ReserveNotMet'; readonly data: ReserveNotMetEvent }
  | { readonly name: 'AuctionCancelled'; readonly data: AuctionCancelledEvent };

export type AuctionEventName = AuctionEvent['name'];

export const EVENT_DISCRIMINATORS: Record<AuctionEventName, Uint8Array> = {
  AuctionCreated: eventDiscriminator('AuctionCreated'),
  BidPlaced: eventDiscriminator('BidPlaced'),
  AuctionExtended: eventDiscriminator('AuctionExtended'),
  AuctionSettled: eventDiscriminator('AuctionSettled'),
  ReserveNotMet: eventDiscriminator('ReserveNotMet'),
  AuctionCancelled: eventDiscriminator('AuctionCancelled'),
};

const pubkey = (w: BorshWriter, a: Address) => w.fixed(addressToBytes(a));
const optPubkey = (w: BorshWriter, a: Address | null) => w.option(a, pubkey);
const readPubkey = (r: BorshReader) => addressFromBytes(r.fixed(32));

export function encodeAuctionEvent(event: AuctionEvent): Uint8Array {
  const w = new BorshWriter(160).fixed(EVENT_DISCRIMINATORS[event.name]);
  switch (event.name) {
    case 'AuctionCreated': {
      const e = event.data;
      pubkey(w, e.auction);
      pubkey(w, e.seller);
      w.u8(AUCTION_TYPES.indexOf(e.auctionType))
        .vec(e.domains, (w, d) => w.string(d))
        .u64(e.startingPrice)
        .u64(e.minIncrement)
        .u64(e.buyNowPrice)
        .u64(e.dutchFloor)
        .bool(e.hasReserve)
        .i64(e.startTs)
        .i64(e.endTs)
        .bool(e.snipeEnabled)
        .u32(e.snipeWindowSeconds)
        .u32(e.snipeExtensionSeconds)
        .i64(e.timestamp);
      break;
    }
    case 'BidPlaced': {
      const e = event.data;
      pubkey(w, e.auction);
      pubkey(w, e.bidder);
      w.u64(e.amount);
      optPubkey(w, e.previousBidder);
      w.u64(e.previousAmount).u32(e.bidCount).i64(e.endTs).i64(e.timestamp);
      break;
    }
    case 'AuctionExtended': {
      const e = event.data;
      pubkey(w, e.auction);
      pubkey(w, e.bidder);
      w.u64(e.amount).i64(e.previousEndTs).i64(e.newEndTs);
      break;
    }
    case 'AuctionSettled': {
      const e = event.data;
      pubkey(w, e.auction);
      pubkey(w, e.seller);
      optPubkey(w, e.winner);
      w.u64(e.price).u64(e.fee).i64(e.timestamp);
      break;
    }
    case 'ReserveNotMet': {
      const e = event.data;
      pubkey(w, e.auction);
      optPubkey(w, e.topBidder);
      w.u64(e.topBid);
      break;
    }
    case 'AuctionCancelled': {
      const e = event.data;
      pubkey(w, e.auction);
      pubkey(w, e.seller);
      w.i64(e.timestamp);
      break;
    }
  }
  return w.toBytes();
}

/** Decodes one event payload; returns null for payloads that are not ours (other programs log data too). */
export function decodeAuctionEvent(bytes: Uint8Array): AuctionEvent | null {
  const name = (Object.keys(EVENT_DISCRIMINATORS) as AuctionEventName[]).find((n) =>
    hasDiscriminator(bytes, EVENT_DISCRIMINATORS[n]),
  );
  if (!name) return null;
  const r = new BorshReader(bytes);
  r.fixed(8);
  const event = decodeEventData(name, r);
  r.expectEnd();
  return event;
}

function decodeEventData(name: AuctionEventName, r: BorshReader): AuctionEvent {
  switch (name) {
    case 'AuctionCreated': {
      const auction = readPubkey(r);
      const seller = readPubkey(r);
      const tag = r.u8();
      const auctionType = AUCTION_TYPES[tag];
      if (!auctionType) throw new BorshError(`invalid auction type tag ${tag}`);
      return {
        name,
        data: {
          auction,
          seller,
          auctionType,
          domains: r.vec((r) => r.string(MAX_DOMAIN_NAME_BYTES), MAX_DOMAINS_PER_AUCTION),
          startingPrice: r.u64(),
          minIncrement: r.u64(),
          buyNowPrice: r.u64(),
          dutchFloor: r.u64(),
          hasReserve: r.bool(),
          startTs: r.i64(),
          endTs: r.i64(),
          snipeEnabled: r.bool(),
          snipeWindowSeconds: r.u32(),
          snipeExtensionSeconds: r.u32(),
          timestamp: r.i64(),
        },
      };
    }
    case 'BidPlaced':
      return {
        name,
        data: {
          auction: readPubkey(r),
          bidder: readPubkey(r),
          amount: r.u64(),
          previousBidder: r.option(readPubkey),
          previousAmount: r.u64(),
          bidCount: r.u32(),
          endTs: r.i64(),
          timestamp: r.i64(),
        },
      };
    case 'AuctionExtended':
      return {
        name,
        data: {
          auction: readPubkey(r),
          bidder: readPubkey(r),
          amount: r.u64(),
          previousEndTs: r.i64(),
          newEndTs: r.i64(),
        },
      };
    case 'AuctionSettled':
      return {
        name,
        data: {
          auction: readPubkey(r),
          seller: readPubkey(r),
          winner: r.option(readPubkey),
          price: r.u64(),
          fee: r.u64(),
          timestamp: r.i64(),
        },
      };
    case 'ReserveNotMet':
      return { name, data: { auction: readPubkey(r), topBidder: r.option(readPubkey), topBid: r.u64() } };
    case 'AuctionCancelled':
      return { name, data: { auction: readPubkey(r), seller: readPubkey(r), timestamp: r.i64() } };
  }
}
