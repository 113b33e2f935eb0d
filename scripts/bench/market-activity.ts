/**
 * What the worker does to the index while the API serves reads, standing in for it in bench:api:
 * a steady trickle of bids (each an upsert, which bumps the index version and so invalidates the
 * page cache, as a live market does) and the Dutch price re-scoring of every indexer pass.
 */
import type { ChainClock } from '../../src/chain/chain-clock.js';
import type { AuctionIndex } from '../../src/indexer/auction-index.js';
import { progress } from './measure.js';
import { type SyntheticAuction, syntheticAddress, withOneMoreBid } from './synthetic-auctions.js';

export interface MarketActivity {
  /** Auctions that can take the trickle's bids (live English auctions); replaces the previous set. */
  setBiddable(auctions: SyntheticAuction[]): void;
  readonly writes: number;
  stop(): Promise<void>;
}

export function startMarketActivity(input: {
  readonly index: AuctionIndex;
  readonly chainClock: ChainClock;
  readonly writesPerSecond: number;
}): MarketActivity {
  const { index, chainClock } = input;
  let biddable: SyntheticAuction[] = [];
  let writes = 0;
  let inflight: Promise<unknown> = Promise.resolve();
  const bid = async () => {
    if (biddable.length === 0) return;
    const i = Math.floor(Math.random() * biddable.length);
    const next = withOneMoreBid(biddable[i]!, syntheticAddress(`bench-bidder-${writes % 50_000}`));
    biddable[i] = next;
    await index.upsertFromAccount(next.address, next.account, next.slot);
    writes++;
  };
  const report = (err: unknown) => progress(`market activity failed: ${String(err)}`);
  const refresh = async () => {
    const now = await chainClock.now();
    while ((await index.refreshDynamicPrices(now, 1_000)) === 1_000);
  };
  const timers = [
    input.writesPerSecond > 0
      ? setInterval(() => {
          inflight = inflight.then(bid).catch(report);
        }, 1_000 / input.writesPerSecond)
      : undefined,
    setInterval(() => {
      inflight = inflight.then(refresh).catch(report);
    }, 1_000),
  ];
  return {
    setBiddable: (auctions) => {
      biddable = auctions;
    },
    get writes() {
      return writes;
    },
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await inflight;
    },
  };
}
