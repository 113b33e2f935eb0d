/** GET /auctions: one page from the index, statuses and Dutch prices computed at chain time. */
import type { AuctionPageEntries, AuctionQuery } from '../indexer/auction-index-query.js';
import type { ScriptRunner } from '../redis/lua-script.js';
import type { AuctionDeps } from './auction-deps.js';
import type { ListedAuction } from './auction-view.js';

/** What a page is made of, as the index answered it, before its auctions are read. */
export interface AuctionListRead {
  readonly query: AuctionQuery;
  /** Chain time, Unix seconds. */
  readonly now: bigint;
  readonly entries: AuctionPageEntries;
  /**
   * Two reads with the same key hold the same auctions in the same state, on the same page: their
   * views differ only by what chain time changes (see `listItemViewChangesAt`).
   */
  readonly contentKey: string;
}

/** `run`: how to run the index's query script (default: on its own), see `AuctionIndex.queryEntries`. */
export async function readAuctionList(
  deps: AuctionDeps,
  query: AuctionQuery,
  run?: ScriptRunner,
): Promise<AuctionListRead> {
  const now = await deps.chainClock.now();
  // The index's query reads the known reserves of the page in the same round trip.
  const entries = await deps.auctionIndex.queryEntries(query, now, run);
  return { query, now, entries, contentKey: `${query.page}|${query.pageSize}|${entries.contentKey}` };
}

/** The page's auctions with their known reserves: what their views are made of, apart from chain time. */
export async function auctionListItems(
  deps: AuctionDeps,
  { now, entries }: AuctionListRead,
): Promise<ListedAuction[]> {
  const listed = await deps.auctionIndex.itemsOf(entries.entries, now);
  return listed.map(({ address, account, metadata }) => ({
    address,
    account,
    metadata,
    knownReserve: entries.reserves.get(address) ?? null,
  }));
}
