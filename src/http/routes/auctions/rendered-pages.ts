import { ResponseSerializationError } from 'fastify-type-provider-zod';
import {
  auctionListItemView,
  type ListedAuction,
  listItemViewChangesAt,
} from '../../../auctions/auction-view.js';
import { type AuctionStatus, auctionStatus } from '../../../core/auction-rules/status.js';
import { LruCache } from '../../../core/collections/lru-cache.js';
import { lamportsToSol } from '../../../core/money.js';
import { currentPrice } from '../../../indexer/auction-document.js';
import { BufferSlab } from '../../buffer-slab.js';
import { AuctionListItemSchema, AuctionListSchema } from '../../schemas/auctions.js';

export interface ListPageContent {
  readonly items: readonly ListedAuction[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}

/** Something rendered at chain time `from` that holds until `until` (null: until a write). */
interface Span {
  readonly from: bigint;
  readonly until: bigint | null;
}

interface RenderedItem extends Span {
  readonly listed: ListedAuction;
  readonly json: string;
  readonly status: AuctionStatus;
  /** `json` around the current price's value: what the next second of a live Dutch auction reuses. */
  readonly beforePrice: string;
  readonly afterPrice: string;
}

interface RenderedPage extends Span {
  readonly items: readonly RenderedItem[];
  /** What follows the items: `],"total":…,"page":…,"pageSize":…}`. */
  readonly tail: string;
  readonly json: Buffer;
}

const holdsAt = (span: Span, now: bigint) => now >= span.from && (span.until === null || now < span.until);

/**
 * GET /auctions pages already rendered (the envelope's `data`: `AuctionListSchema`'s encoding,
 * stringified, same key order, as UTF-8 bytes), by content key: the many clients reading the
 * same page share one rendering. Each page keeps its items and the chain seconds over which each
 * item's view holds, so a page read at a later second (a live Dutch price fell, an auction
 * ended) re-encodes only the items that changed, and needs neither the index nor the documents.
 * The least recently used page goes first (a page of 20: ~13 KB of bytes and as much of item JSON).
 */
export class RenderedPages {
  private readonly pages: LruCache<string, RenderedPage>;

  constructor(capacity = 2_000) {
    this.pages = new LruCache(capacity);
  }

  /** The page of `key` at chain time `now`, or undefined when it is not kept. */
  get(key: string, now: bigint): Buffer | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (holdsAt(page, now)) return page.json;
    const items = page.items.map((item) => (holdsAt(item, now) ? item : renderItem(item.listed, now, item)));
    const rendered = assemble(items, page.tail);
    this.pages.set(key, rendered);
    return rendered.json;
  }

  /** Renders `content`, the page of `key` read at chain time `now`, and keeps it. */
  put(key: string, now: bigint, content: ListPageContent): Buffer {
    const { total, page, pageSize } = content;
    const tail = JSON.stringify(AuctionListSchema.encode({ auctions: [], total, page, pageSize })).slice(
      '{"auctions":['.length,
    );
    const rendered = assemble(
      content.items.map((listed) => renderItem(listed, now)),
      tail,
    );
    this.pages.set(key, rendered);
    return rendered.json;
  }
}

const PRICE_KEY = '"currentPrice":';

/**
 * The item's JSON at `now`. A view depends on chain time only through its status and current
 * price, so when `previous` has the same status (a live Dutch auction a second later) only the
 * price is written again, into the JSON already encoded; otherwise the whole view is encoded.
 */
function renderItem(listed: ListedAuction, now: bigint, previous?: RenderedItem): RenderedItem {
  const { account } = listed;
  const until = listItemViewChangesAt(account, now);
  const status = auctionStatus(account, now);
  if (previous && previous.status === status) {
    const price = JSON.stringify(lamportsToSol(currentPrice(account, now)));
    return { ...previous, json: previous.beforePrice + price + previous.afterPrice, from: now, until };
  }
  const encoded = AuctionListItemSchema.safeEncode(auctionListItemView({ ...listed, now }));
  if (!encoded.success) throw new ResponseSerializationError('GET', '/auctions', { cause: encoded.error });
  const json = JSON.stringify(encoded.data);
  // The first `"currentPrice":` is the key: inside a JSON string its quotes would be escaped.
  const valueAt = json.indexOf(PRICE_KEY) + PRICE_KEY.length;
  const beforePrice = json.slice(0, valueAt);
  const afterPrice = json.slice(json.indexOf(',', valueAt));
  return { listed, json, status, beforePrice, afterPrice, from: now, until };
}

function assemble(items: readonly RenderedItem[], tail: string): RenderedPage {
  let from: bigint | null = null;
  let until: bigint | null = null;
  for (const item of items) {
    if (from === null || item.from > from) from = item.from;
    if (item.until !== null && (until === null || item.until < until)) until = item.until;
  }
  const json = Buffer.from(`{"auctions":[${items.map((item) => item.json).join(',')}${tail}`);
  // An empty page holds at any time (only a write changes it, and a write changes its key).
  return { items, tail, json, from: from ?? 0n, until };
}

const ENVELOPE_START = Buffer.from('{"success":true,"data":');
const responseBodies = new BufferSlab();

/** The success envelope around rendered `data`, as the zod serializer writes it (same key order). */
export function envelopeJson(dataJson: Buffer, nowMs = Date.now()): Buffer {
  const tail = `,"timestamp":${nowMs}}`;
  const body = responseBodies.take(ENVELOPE_START.length + dataJson.length + tail.length);
  ENVELOPE_START.copy(body, 0);
  dataJson.copy(body, ENVELOPE_START.length);
  body.write(tail, ENVELOPE_START.length + dataJson.length, 'latin1');
  return body;
}
