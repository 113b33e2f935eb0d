/** GET /auctions/:id: the account read live with the chain clock, joined with the index's bids and metadata. */
import type { Address } from '../core/address.js';
import { effectiveMetadata } from '../indexer/auction-document.js';
import type { AuctionDeps } from './auction-deps.js';
import { type AuctionDetailView, auctionDetailView } from './auction-view.js';
import { readAuction } from './chain-reads.js';

export async function getAuction(
  deps: AuctionDeps,
  auctionId: Address,
  viewerWallet: string | null,
): Promise<AuctionDetailView> {
  const [{ auction, now }, metadata, bids, knownReserve] = await Promise.all([
    readAuction(deps, auctionId),
    deps.auctionIndex.getMetadata(auctionId),
    deps.auctionIndex.getBids(auctionId),
    deps.reserves.get(auctionId),
  ]);
  return auctionDetailView({
    address: auctionId,
    account: auction,
    metadata: effectiveMetadata(metadata, auction.domains),
    now,
    knownReserve,
    bids,
    viewerWallet,
  });
}
