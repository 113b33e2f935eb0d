/** A plain in-memory implementation of GET /auctions' semantics, to check the Redis index against. */

import type { Address } from '../../src/core/address.js';
import { auctionStatus } from '../../src/core/auction-rules/status.js';
import type { AuctionAccount } from '../../src/core/program/auction-account.js';
import { type AuctionMetadata, currentPrice, effectiveMetadata } from '../../src/indexer/auction-document.js';
import type { AuctionQuery, AuctionSortKey } from '../../src/indexer/auction-index-query.js';

export interface ModelAuction {
  readonly address: Address;
  readonly account: AuctionAccount;
  readonly metadata: AuctionMetadata | null;
}

export function sortValue(a: AuctionAccount, sortBy: AuctionSortKey, now: bigint): bigint {
  switch (sortBy) {
    case 'endTime':
      return a.endTs;
    case 'createdAt':
      return a.createdAt;
    case 'totalBids':
      return BigInt(a.bidCount);
    case 'currentPrice':
      return currentPrice(a, now);
  }
}

export function matchesSearch(m: ModelAuction, search: string): boolean {
  const needle = search.trim().toLowerCase();
  const { title } = effectiveMetadata(m.metadata, m.account.domains);
  const texts = [m.account.seller, title.replace(/[\r\n]+/g, ' '), ...m.account.domains.map((d) => d.name)];
  return texts.some((t) => t.toLowerCase().includes(needle));
}

/** The auctions a query selects, and their sort values in page order (ties in any order). */
export function expectedResult(
  auctions: readonly ModelAuction[],
  q: Omit<AuctionQuery, 'page' | 'pageSize'>,
  now: bigint,
): { addresses: Set<string>; values: bigint[] } {
  const selected = auctions.filter(
    (m) =>
      (!q.status || auctionStatus(m.account, now) === q.status) &&
      (!q.type || m.account.auctionType === q.type) &&
      (!q.seller || m.account.seller === q.seller) &&
      (!q.search?.trim() || matchesSearch(m, q.search)),
  );
  const values = selected.map((m) => sortValue(m.account, q.sortBy, now));
  values.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  if (q.sortOrder === 'desc') values.reverse();
  return { addresses: new Set(selected.map((m) => m.address)), values };
}
