/** GET /auctions: one page from the index, statuses and Dutch prices computed at chain time. */
import type { AuctionListItem, AuctionQuery } from '../indexer/auction-index-query.js';
import type { ScriptRunner } from '../redis/lua-script.js';
import type { AuctionDeps } from './auction-deps.js';
import { type AuctionListItemView, auctionListItemView } from './auction-view.js';

export interface AuctionListPage {
  readonly auctions: AuctionListItemView[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}

/** What a page is made of, read from the index (with the reserve store's known reserves). */
export interface AuctionListRead {
  readonly query: AuctionQuery;
  /** Chain time, Unix seconds. */
  readonly now: bigint;
  readonly items: readonly AuctionListItem[];
  readonly total: number;
  readonly reserves: ReadonlyMap<string, bigint>;
  /** Two reads with the same key have the same view: a cache of rendered pages keys on it. */
  readonly viewKey: string;
}

/** `run`: how to run the index's query script (default: on its own), see `AuctionIndex.query`. */
export async function readAuctionList(
  deps: AuctionDeps,
  query: AuctionQuery,
  run?: ScriptRunner,
): Promise<AuctionListRead> {
  const now = await deps.chainClock.now();
  // The index's query reads the known reserves of the page in the same round trip.
  const { items, total, contentKey, reserves } = await deps.auctionIndex.query(query, now, run);
  // What the view takes from chain time is each item's status and price: keyed on those rather
  // than on the chain second, a page nobody wrote to renders once, not once per second.
  let timeDependent = '';
  for (const item of items) timeDependent += `${item.status}:${item.currentPrice},`;
  const viewKey = `${query.page}|${query.pageSize}|${contentKey}|${timeDependent}`;
  return { query, now, items, total, reserves, viewKey };
}

export function auctionListView({ query, now, items, total, reserves }: AuctionListRead): AuctionListPage {
  return {
    auctions: items.map((item) =>
      auctionListItemView({ ...item, now, knownReserve: reserves.get(item.address) ?? null }),
    ),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
