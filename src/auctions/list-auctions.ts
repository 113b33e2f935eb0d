/** GET /auctions: one page from the index, statuses and Dutch prices computed at chain time. */
import type { AuctionQuery } from '../indexer/auction-index-query.js';
import type { AuctionDeps } from './auction-deps.js';
import { type AuctionListItemView, auctionListItemView } from './auction-view.js';

export interface AuctionListPage {
  readonly auctions: AuctionListItemView[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}

export async function listAuctions(deps: AuctionDeps, query: AuctionQuery): Promise<AuctionListPage> {
  const now = await deps.chainClock.now();
  const { items, total } = await deps.auctionIndex.query(query, now);
  const reserves = await deps.reserves.getMany(
    items.filter((i) => i.account.reserveCommitment !== null).map((i) => i.address),
  );
  return {
    auctions: items.map((item) =>
      auctionListItemView({ ...item, now, knownReserve: reserves.get(item.address) ?? null }),
    ),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
