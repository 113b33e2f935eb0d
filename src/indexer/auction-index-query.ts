import { type Address, isAddress } from '../core/address.js';
import { type AuctionStatus, auctionStatus } from '../core/auction-rules/status.js';
import type { AuctionAccount, AuctionType } from '../core/program/auction-account.js';
import {
  type AuctionMetadata,
  currentPrice,
  decodeAuctionDocument,
  type EffectiveMetadata,
  effectiveMetadata,
} from './auction-document.js';

export const AUCTION_SORT_KEYS = ['endTime', 'currentPrice', 'totalBids', 'createdAt'] as const;
export type AuctionSortKey = (typeof AUCTION_SORT_KEYS)[number];
export const MAX_PAGE_SIZE = 100;

export interface AuctionQuery {
  readonly status?: AuctionStatus | undefined;
  readonly type?: AuctionType | undefined;
  readonly seller?: string | undefined;
  /** Case-insensitive substring of a domain name, the title or the seller address. */
  readonly search?: string | undefined;
  readonly sortBy: AuctionSortKey;
  readonly sortOrder: 'asc' | 'desc';
  /** 1-based. */
  readonly page: number;
  /** 1..100. */
  readonly pageSize: number;
}

/** An auction as the index holds it. */
export interface IndexedAuction {
  readonly address: Address;
  readonly account: AuctionAccount;
  /** Slot of the account state stored. */
  readonly slot: number;
  readonly metadata: EffectiveMetadata;
}

/** A list item: the indexed auction with what depends on chain time, computed at read time. */
export interface AuctionListItem extends IndexedAuction {
  readonly status: AuctionStatus;
  /** Lamports. */
  readonly currentPrice: bigint;
}

/** A page as the query script answers it, before its auctions are read. */
export interface AuctionPageEntries {
  /** The page's auctions (ids and versions), in order. */
  readonly entries: PageEntry[];
  readonly total: number;
  /**
   * The total, the page's auctions at their versions and their known reserves: two pages with the
   * same key hold the same auctions in the same state (what may differ is only what depends on
   * chain time).
   */
  readonly contentKey: string;
  /** The hidden reserves the service knows of the page's reserve auctions (lamports, by address). */
  readonly reserves: ReadonlyMap<string, bigint>;
}

export interface AuctionPage extends Omit<AuctionPageEntries, 'entries'> {
  readonly items: AuctionListItem[];
}

const SCRIPT_SORT_KEY: Record<AuctionSortKey, string> = {
  endTime: 'end',
  currentPrice: 'price',
  totalBids: 'bids',
  createdAt: 'created',
};

/** Stored metadata: a JSON object of strings, merged field by field by metadata.lua. */
interface StoredMetadata {
  readonly title?: string;
  readonly category?: string;
  readonly tags?: string;
  readonly featured?: string;
}

export function metadataFromJson(json: string | null): AuctionMetadata {
  const m = json ? (JSON.parse(json) as StoredMetadata) : {};
  return {
    ...(m.title !== undefined ? { title: m.title } : {}),
    ...(m.category !== undefined ? { category: m.category } : {}),
    ...(m.tags !== undefined ? { tags: JSON.parse(m.tags) as string[] } : {}),
    ...(m.featured !== undefined ? { featured: m.featured === '1' } : {}),
  };
}

/** metadata.lua's field/value pairs for the fields `meta` sets (tl: the title as searched). */
export function metadataToFields(meta: AuctionMetadata): string[] {
  const fields: string[] = [];
  // The search text keeps one title per line: a newline in a title is searched as a space.
  if (meta.title !== undefined)
    fields.push('title', meta.title, 'tl', meta.title.toLowerCase().replace(/[\r\n]+/g, ' '));
  if (meta.category !== undefined) fields.push('category', meta.category);
  if (meta.tags !== undefined) fields.push('tags', JSON.stringify(meta.tags));
  if (meta.featured !== undefined) fields.push('featured', meta.featured ? '1' : '0');
  return fields;
}

export function indexedAuction(doc: string, metadataJson: string | null): IndexedAuction {
  const { address, account, slot } = decodeAuctionDocument(doc);
  return {
    address,
    account,
    slot,
    metadata: effectiveMetadata(metadataFromJson(metadataJson), account.domains),
  };
}

export function listItem(
  { address, account, slot, metadata }: IndexedAuction,
  chainNow: bigint,
): AuctionListItem {
  return {
    address,
    account,
    slot,
    metadata,
    status: auctionStatus(account, chainNow),
    currentPrice: currentPrice(account, chainNow),
  };
}

/** The query argument of query.lua (see page-cache.lua), or null when nothing can match. */
export function queryArguments(q: AuctionQuery): string | null {
  if (!Number.isSafeInteger(q.page) || q.page < 1) throw new RangeError('page must be an integer ≥ 1');
  if (!Number.isSafeInteger(q.pageSize) || q.pageSize < 1 || q.pageSize > MAX_PAGE_SIZE)
    throw new RangeError(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  // A seller that is not an address owns nothing (and must not shape a key name).
  if (q.seller !== undefined && !isAddress(q.seller)) return null;
  const search = (q.search ?? '').trim().toLowerCase();
  // The search last: it is the only field that may hold a '|'.
  return `${q.status ?? ''}|${q.type ?? ''}|${q.seller ?? ''}|${SCRIPT_SORT_KEY[q.sortBy]}|${q.sortOrder}|${(q.page - 1) * q.pageSize}|${q.pageSize}|${search}`;
}

export interface PageEntry {
  readonly iid: string;
  /** Version of the auction's document and metadata: changes with every write to either. */
  readonly version: string;
}

/**
 * query.lua's reply: "<total> <iid> <version> <iid> <version> ...", a newline, then the known
 * hidden reserves of the page's reserve auctions, "<address>=<lamports> ...".
 */
export function parseQueryReply(reply: unknown): {
  total: number;
  page: PageEntry[];
  reserves: Map<string, bigint>;
} {
  const text = String(reply);
  const cut = text.indexOf('\n');
  const values = (cut === -1 ? text : text.slice(0, cut)).split(' ');
  const page: PageEntry[] = [];
  for (let i = 1; i + 1 < values.length; i += 2) page.push({ iid: values[i]!, version: values[i + 1]! });
  const reserves = new Map<string, bigint>();
  if (cut !== -1 && cut + 1 < text.length) {
    for (const pair of text.slice(cut + 1).split(' ')) {
      const eq = pair.indexOf('=');
      reserves.set(pair.slice(0, eq), BigInt(pair.slice(eq + 1)));
    }
  }
  return { total: Number(values[0]), page, reserves };
}

/**
 * The page entries of a query.lua reply, parsed on first use: a request answered from a page
 * already rendered for this reply (its content key) never needs them.
 */
export function pageEntriesOf(reply: string): AuctionPageEntries {
  let parsed: ReturnType<typeof parseQueryReply> | undefined;
  const get = () => {
    parsed ??= parseQueryReply(reply);
    return parsed;
  };
  return {
    contentKey: reply,
    get entries() {
      return get().page;
    },
    get total() {
      return get().total;
    },
    get reserves() {
      return get().reserves;
    },
  };
}
