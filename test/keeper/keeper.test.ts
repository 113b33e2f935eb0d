import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAuction } from '../../src/chain/auction-accounts.js';
import { readDomainOwner } from '../../src/chain/sns.js';
import type { Address } from '../../src/core/address.js';
import { startKeeper } from '../../src/keeper/keeper.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  startAuctionApi,
  walletWithKey,
} from '../helpers/auction-api.js';

describe('keeper sweep (real localnet, Redis and indexer)', () => {
  let env: AuctionApiEnv;

  beforeAll(async () => {
    env = await startAuctionApi('keeper', { indexer: true });
  });
  afterAll(() => env?.close());

  it('settles ended auctions on its own, once, and leaves running ones alone', async () => {
    const indexer = env.api.indexer!;
    const seller = await walletWithKey(env);
    const bidder = await walletWithKey(env);
    const ending = await createViaApi(env, seller, { durationHours: 0.25 });
    const running = await createViaApi(env, seller, { durationHours: 2 });
    const bid = await bidViaApi(env, bidder, ending.auctionId, 1);
    await indexer.caughtUp(running.signature);
    await indexer.caughtUp(bid);

    const keeper = startKeeper(env.api.deps, { sweepEveryMs: 3_600_000 });
    try {
      expect(await keeper.sweep()).toEqual([]); // nothing has ended yet
      await env.t.warp(16 * 60);

      const settled = await keeper.sweep();
      expect(settled.map((s) => s.auctionId)).toEqual([ending.auctionId]);
      expect(settled[0]).toMatchObject({ winner: bidder.address, finalPrice: 1, settled: true });
      await indexer.caughtUp(settled[0]!.transactionId);

      const onChain = await fetchAuction(env.connection, ending.auctionId as Address);
      expect(onChain?.state).toBe('settled');
      expect(await readDomainOwner(env.connection, ending.domainNames[0]!)).toBe(bidder.address);
      expect((await fetchAuction(env.connection, running.auctionId as Address))?.state).toBe('active');
      expect(await keeper.sweep()).toEqual([]); // the index no longer lists it
    } finally {
      await keeper.stop();
    }
  });
});
