/** GET /auctions: one page from the index, statuses and Dutch prices computed at chain time. */
import type { AuctionPageEntries, AuctionQuery } from '../indexer/auction-index-query.js';
import type { ScriptRunner } from '../redis/lua-script.js';
import type { AuctionDeps } from './auction-deps.js';
import { type AuctionListItemView, auctionListItemView, listItemViewChangesAt } from './auction-view.js';

export interface AuctionListPage {
  readonly auctions: AuctionListItemView[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}

/** What a page is made of, as the index answered it, before its auctions are read. */
export interface AuctionListRead {
  readonly query: AuctionQuery;
  /** Chain time, Unix seconds. */
  readonly now: bigint;
  readonly entries: AuctionPageEntries;
  /**
   * Two reads with the same key hold the same auctions in the same state, on the same page: their
   * views differ only by what chain time changes (see `auctionListView`'s `changesAt`).
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

/**
 * The page's view at its chain time, and the first chain second at which it may differ (null:
 * only a write can change it, and a write changes the content key).
 */
export async function auctionListView(
  deps: AuctionDeps,
  { query, now, entries }: AuctionListRead,
): Promise<{ view: AuctionListPage; changesAt: bigint | null }> {
  const items = await deps.auctionIndex.itemsOf(entries.entries, now);
  let changesAt: bigint | null = null;
  for (const { account } of items) {
    const at = listItemViewChangesAt(account, now);
    if (at !== null && (changesAt === null || at < changesAt)) changesAt = at;
  }
  const view = {
    auctions: items.map((item) =>
      auctionListItemView({ ...item, now, knownReserve: entries.reserves.get(item.address) ?? null }),
    ),
    total: entries.total,
    page: query.page,
    pageSize: query.pageSize,
  };
  return { view, changesAt };
}
