/**
 * The Redis read model behind GET /auctions and the bid history of GET /auctions/:id.
 *
 * Design (the Lua in ./lua does the work; a page is one script call, plus one MGET for documents
 * this process has not cached at their current version):
 * - Every auction sits in 8 filter "cells" (all, by status, by type, by status and type, and the
 *   same four within its seller), and each cell has one ZSET per sort key. A page is a ZRANGE by
 *   rank and the total a ZCARD: O(log N + page) whatever the filters.
 * - Status depends on chain time, so it is materialized at a time `tm`; each script first moves
 *   the auctions whose start or end lies between `tm` and its own chain time to their new cells
 *   (few per second), which keeps statuses exact at read time in either direction of time.
 * - A live Dutch auction's price falls every second, so those are kept out of the price ZSETs and
 *   merged in at read time by a threshold scan over prices scored at a recent time (dynamic.lua).
 * - Search intersects trigram sets (seller, title, domains), then verifies the substring; the
 *   verified matches are kept per version of the search texts (bids do not change them).
 * - Each cell has a version, changed by every write to its auctions (and by status moves): a page
 *   without search is kept 10 s under its cell's version (plus the chain second for price sorts
 *   over live Dutch auctions), so a page survives writes to other cells and passing seconds; a
 *   search page is kept 2 s under the chain second and the index version. A page holds the known
 *   hidden reserves of its auctions, under the ReserveStore's version too. A kept page is found
 *   before the rest of the script is even defined (page-cache.lua): three GETs and an HGET.
 * Costs beyond O(log N + page): the price sort over live Dutch auctions and search are O(offset +
 * matches); searches shorter than 3 characters scan every auction's text.
 */
import type { Redis } from 'ioredis';
import type { Address } from '../core/address.js';
import { LruCache } from '../core/collections/lru-cache.js';
import type { AuctionAccount } from '../core/program/auction-account.js';
import type { RedisKeys } from '../redis/keys.js';
import type { ScriptCall, ScriptRunner } from '../redis/lua-script.js';
import {
  type AuctionMetadata,
  decodeAuctionDocument,
  encodeAuctionDocument,
  sortPrices,
} from './auction-document.js';
import {
  type AuctionListItem,
  type AuctionPage,
  type AuctionPageEntries,
  type AuctionQuery,
  type IndexedAuction,
  indexedAuction,
  listItem,
  metadataFromJson,
  metadataToFields,
  type PageEntry,
  pageEntriesOf,
  queryArguments,
} from './auction-index-query.js';
import { indexScripts } from './index-scripts.js';

export interface IndexedBid {
  readonly bidder: Address;
  /** Lamports. */
  readonly amount: bigint;
  /** Unix ms, chain time of the bid. */
  readonly timestamp: number;
  /** Signature of the transaction that placed it. */
  readonly transactionId: string;
  /** Position of the BidPlaced event among the program's events in that transaction. */
  readonly eventIndex: number;
  /** The auction's bid count after this bid: chain order. */
  readonly sequence: number;
}

export interface AccountUpsert {
  readonly address: Address;
  readonly account: AuctionAccount;
  readonly slot: number;
}

export interface AuctionIndexOptions {
  /**
   * Decoded documents kept in memory (~1 KB each), re-read only when their version changes.
   * Default 50 000: the pages of a long tail of sellers and searches stay off Redis too.
   */
  readonly cacheSize?: number;
}

export class AuctionIndex {
  private readonly scripts = indexScripts();
  private readonly base: string;
  /** The query script's keys and its arguments after the query: the same for every call. */
  private readonly queryKeys: readonly string[];
  private readonly reserveArgs: [reservePrefix: string, reservesVersion: string];
  private readonly cache: LruCache<string, { readonly version: string; readonly auction: IndexedAuction }>;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    options: AuctionIndexOptions = {},
  ) {
    this.base = keys.auctionIndex();
    this.queryKeys = [keys.auctionIndex('tm')];
    this.reserveArgs = [keys.auctionReserve(''), keys.auctionReservesVersion()];
    this.cache = new LruCache(options.cacheSize ?? 50_000);
  }

  /**
   * Stores the account read at `slot`; a no-op (false) when a later slot is already stored.
   * `chainNow` seeds the status clock of an empty index (default: the auction's creation time).
   */
  async upsertFromAccount(
    address: Address,
    account: AuctionAccount,
    slot: number,
    options: { chainNow?: bigint } = {},
  ): Promise<boolean> {
    const args = this.upsertArguments({ address, account, slot }, options.chainNow ?? account.createdAt);
    return Number(await this.scripts.upsert.run(this.redis, [this.keys.auctionIndex('ids')], args)) === 1;
  }

  /** Pipelined upserts for bulk loading (seeding, rebuilds): about 10 k auctions per second. */
  async bulkUpsert(entries: readonly AccountUpsert[], chainNow: bigint, chunkSize = 1_000): Promise<number> {
    await this.scripts.upsert.load(this.redis);
    let stored = 0;
    for (let i = 0; i < entries.length; i += chunkSize) {
      const pipeline = this.redis.pipeline();
      for (const entry of entries.slice(i, i + chunkSize))
        this.scripts.upsert.queue(
          pipeline,
          [this.keys.auctionIndex('ids')],
          this.upsertArguments(entry, chainNow),
        );
      for (const [error, result] of (await pipeline.exec()) ?? []) {
        if (error) throw error;
        stored += Number(result);
      }
    }
    return stored;
  }

  /** Merges off-chain metadata (given fields only); the auction need not be on chain yet. */
  async putMetadata(auctionId: Address, meta: AuctionMetadata): Promise<void> {
    const fields = metadataToFields(meta);
    if (fields.length === 0) return;
    await this.scripts.metadata.run(
      this.redis,
      [this.keys.auctionIndex('ids')],
      [this.base, auctionId, ...fields],
    );
  }

  /** The metadata stored for an auction (without defaults), or null when none was put. */
  async getMetadata(auctionId: Address): Promise<AuctionMetadata | null> {
    const iid = await this.redis.hget(this.keys.auctionIndex('ids'), auctionId);
    const json = iid ? await this.redis.get(this.keys.auctionIndex('m', iid)) : null;
    return json ? metadataFromJson(json) : null;
  }

  /** The indexed auction, or null when it has not been seen on chain. */
  async get(auctionId: Address): Promise<IndexedAuction | null> {
    const iid = await this.redis.hget(this.keys.auctionIndex('ids'), auctionId);
    if (!iid) return null;
    const [doc, meta] = await this.redis.mget(
      this.keys.auctionIndex('d', iid),
      this.keys.auctionIndex('m', iid),
    );
    return doc ? indexedAuction(doc, meta ?? null) : null;
  }

  /** Records bids; a bid already recorded (same transaction and event) is not added twice. */
  async appendBids(auctionId: Address, bids: readonly IndexedBid[]): Promise<void> {
    if (bids.length === 0) return;
    const args = bids.flatMap((b) => [String(b.sequence), bidMember(b)]);
    await this.redis.zadd(this.keys.auctionBids(auctionId), ...args);
  }

  /** Bid history in chain order. */
  async getBids(auctionId: Address): Promise<IndexedBid[]> {
    const rows = await this.redis.zrange(this.keys.auctionBids(auctionId), '0', '-1', 'WITHSCORES');
    const bids: IndexedBid[] = [];
    for (let i = 0; i < rows.length; i += 2) {
      const b = JSON.parse(rows[i]!) as Omit<IndexedBid, 'amount' | 'sequence'> & { amount: string };
      bids.push({ ...b, amount: BigInt(b.amount), sequence: Number(rows[i + 1]) });
    }
    return bids;
  }

  /**
   * Auctions still Active on chain whose end has passed at `chainNow`: what the keeper settles.
   * Oldest end first, at most `limit`.
   */
  endedUnsettled(chainNow: bigint, limit: number): Promise<Address[]> {
    return this.activeEndingIn('-inf', chainNow.toString(), limit);
  }

  /**
   * Auctions still Active on chain whose end lies in `[from, to]` (chain seconds), soonest first,
   * at most `limit`: what the webhook ending-soon sweep announces.
   */
  endingBetween(from: bigint, to: bigint, limit: number): Promise<Address[]> {
    return this.activeEndingIn(from.toString(), to.toString(), limit);
  }

  private async activeEndingIn(min: string, max: string, limit: number): Promise<Address[]> {
    const iids = await this.redis.zrangebyscore(
      this.keys.auctionIndex('ts', 'end'),
      min,
      max,
      'LIMIT',
      0,
      limit,
    );
    if (iids.length === 0) return [];
    const docs = await this.redis.mget(iids.map((iid) => this.keys.auctionIndex('d', iid)));
    return docs.flatMap((doc) => (doc ? [decodeAuctionDocument(doc).address] : []));
  }

  /** Number of auctions indexed (seen on chain). */
  async count(): Promise<number> {
    return this.redis.zcard(this.keys.auctionIndex('c', '*', 'end'));
  }

  /**
   * One page of auctions at chain time `chainNow` (Unix seconds): the page's entries
   * (`queryEntries`), then its items (`itemsOf`).
   */
  async query(q: AuctionQuery, chainNow: bigint, run?: ScriptRunner): Promise<AuctionPage> {
    const { entries, ...page } = await this.queryEntries(q, chainNow, run);
    return { ...page, items: await this.itemsOf(entries, chainNow) };
  }

  /**
   * What a page is made of, in one script call: the total, the page's ids and versions, the
   * known reserves of its reserve auctions (ReserveStore). `run`: how to run the script, e.g. the
   * request guard, which runs it in its own script (one round trip).
   */
  async queryEntries(q: AuctionQuery, chainNow: bigint, run?: ScriptRunner): Promise<AuctionPageEntries> {
    const args = queryArguments(q);
    if (!args) return pageEntriesOf('0'); // nothing can match: a total of 0, no entries
    const call: ScriptCall = {
      script: this.scripts.query,
      keys: this.queryKeys,
      args: [this.base, chainNow.toString(), args, ...this.reserveArgs],
    };
    const reply = run ? await run(call) : await call.script.run(this.redis, call.keys, call.args);
    return pageEntriesOf(String(reply));
  }

  /** The entries' auctions at `chainNow`, with one MGET of the documents not cached at their versions. */
  async itemsOf(entries: readonly PageEntry[], chainNow: bigint): Promise<AuctionListItem[]> {
    await this.loadDocuments(entries);
    return entries.flatMap(({ iid }) => {
      const cached = this.cache.peek(iid);
      return cached ? [listItem(cached.auction, chainNow)] : [];
    });
  }

  /** Brings the page's documents into the cache at (at least) the versions the query saw. */
  private async loadDocuments(page: readonly PageEntry[]): Promise<void> {
    const stale = page.filter(({ iid, version }) => this.cache.get(iid)?.version !== version);
    if (stale.length === 0) return;
    const values = await this.redis.mget(
      ...stale.map(({ iid }) => this.keys.auctionIndex('d', iid)),
      ...stale.map(({ iid }) => this.keys.auctionIndex('m', iid)),
    );
    stale.forEach(({ iid, version }, i) => {
      const doc = values[i];
      if (!doc) return;
      // Read after the query, so the content is at least `version`: a later version re-reads it.
      this.cache.set(iid, { version, auction: indexedAuction(doc, values[stale.length + i] ?? null) });
    });
  }

  /**
   * Re-scores up to `limit` live Dutch auctions at `chainNow`, stalest first, so price-sorted
   * pages stay cheap; the indexer calls it on every tick. Returns how many were re-scored.
   */
  async refreshDynamicPrices(chainNow: bigint, limit = 1_000): Promise<number> {
    const args = [this.base, chainNow.toString(), String(limit)];
    return Number(await this.scripts.refresh.run(this.redis, [this.keys.auctionIndex('tm')], args));
  }

  private upsertArguments({ address, account: a, slot }: AccountUpsert, chainNow: bigint): string[] {
    const prices = sortPrices(a);
    return [
      this.base,
      address,
      String(slot),
      chainNow.toString(),
      a.seller,
      a.auctionType,
      a.state,
      a.startTs.toString(),
      a.endTs.toString(),
      a.createdAt.toString(),
      String(a.bidCount),
      prices.upcoming.toString(),
      prices.otherwise.toString(),
      a.startingPrice.toString(),
      a.dutchFloor.toString(),
      encodeAuctionDocument({ address, account: a, slot }),
      a.domains.map((d) => d.name.toLowerCase()).join('\n'),
    ];
  }
}

/** The same bid always serializes to the same member, which is what deduplicates it. */
function bidMember(b: IndexedBid): string {
  return JSON.stringify({
    bidder: b.bidder,
    amount: b.amount.toString(),
    timestamp: b.timestamp,
    transactionId: b.transactionId,
    eventIndex: b.eventIndex,
  });
}
