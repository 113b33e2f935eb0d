/**
 * Reaction path: with polling set to a minute, proxy-max still answers an outbid within seconds,
 * because the runner tails the indexer's event stream and promotes the instance's delayed job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../agents/runner/runtime.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { agentsPrefix, auctionDetail, bidsBy, cleanupPrefix, startAgents, until } from './agents-env.js';

describe('events wake strategies', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let naive: Wallet;
  let agent: Wallet;
  let rt: Runtime;
  const prefix = agentsPrefix('events');

  beforeAll(async () => {
    env = await startAuctionApi('agents-events', { indexer: true });
    seller = await walletWithKey(env);
    naive = await walletWithKey(env);
    agent = await walletWithKey(env);
    rt = await startAgents(env, agent, prefix, {
      pollMs: 60_000,
      serviceRedisPrefix: env.api.deps.keys.prefix,
    });
  });
  afterAll(async () => {
    await rt?.close(true);
    await cleanupPrefix(prefix);
    await env?.close();
  });

  const detail = (id: string) => auctionDetail(env, seller, id);

  it('answers an outbid from the event stream, long before the next poll', async () => {
    const { auctionId } = await createViaApi(env, seller, { startingPrice: 1, minBidIncrement: 0.1 });
    await rt.control.startStrategy({
      id: 'ev-proxy',
      strategy: 'proxy-max',
      mode: 'live',
      config: { auctionId, maxBid: 5 },
    });
    await until(
      'our opening bid',
      () => detail(auctionId),
      (d) => d.topBidder === agent.address,
      15_000,
    );
    for (const amount of [1.5, 2.5]) {
      const outbidAt = Date.now();
      await bidViaApi(env, naive, auctionId, amount);
      const d = await until(
        `our answer to ${amount}`,
        () => detail(auctionId),
        (x) => x.topBidder === agent.address && x.bids.at(-1)?.bidder === agent.address,
        15_000,
      );
      expect(Date.now() - outbidAt).toBeLessThan(15_000);
      expect(d.bids.at(-1)!.amount).toBe(amount + 0.1);
    }
    expect((await bidsBy(env, seller, auctionId, agent)).map((b) => b.amount)).toEqual([1, 1.6, 2.6]);
  });

  it('refuses a bid above the spend cap and gives up', async () => {
    const { auctionId } = await createViaApi(env, seller, { startingPrice: 1, minBidIncrement: 0.1 });
    await rt.control.startStrategy({
      id: 'ev-cap',
      strategy: 'proxy-max',
      mode: 'live',
      maxSpendSol: 1.2,
      config: { auctionId, maxBid: 5 },
    });
    await until(
      'our opening bid',
      () => detail(auctionId),
      (d) => d.topBidder === agent.address,
      15_000,
    );
    await bidViaApi(env, naive, auctionId, 1.5);
    const done = await until(
      'the cap',
      async () => (await rt.control.getStrategy('ev-cap'))!,
      (s) => s.status !== 'running',
      15_000,
    );
    expect(done).toMatchObject({ status: 'done', outcome: 'gave_up', reason: 'spend cap 1.2 SOL reached' });
    expect(done.bids.map((b) => b.amountSol)).toEqual(['1']);
    expect((await detail(auctionId)).topBidder).toBe(naive.address);
  });

  it('stop and the kill switch end instances: no bid follows', async () => {
    const a = await createViaApi(env, seller, { startingPrice: 1, minBidIncrement: 0.1 });
    const b = await createViaApi(env, seller, { startingPrice: 1, minBidIncrement: 0.1 });
    await rt.control.startStrategy({
      id: 'ev-stop',
      strategy: 'proxy-max',
      mode: 'live',
      config: { auctionId: a.auctionId, maxBid: 5 },
    });
    await rt.control.startStrategy({
      id: 'ev-kill',
      strategy: 'proxy-max',
      mode: 'live',
      config: { auctionId: b.auctionId, maxBid: 5 },
    });
    for (const { auctionId } of [a, b])
      await until(
        'our opening bid',
        () => detail(auctionId),
        (d) => d.topBidder === agent.address,
        15_000,
      );

    expect(await rt.control.stopStrategy('ev-stop')).toMatchObject({ status: 'stopped' });
    const kill = await rt.control.killSwitch(true);
    expect(kill.killSwitch).toBe(true);
    await bidViaApi(env, naive, a.auctionId, 2);
    await bidViaApi(env, naive, b.auctionId, 2);
    const killed = await until(
      'the kill switch',
      async () => (await rt.control.getStrategy('ev-kill'))!,
      (s) => s.status !== 'running',
      15_000,
    );
    expect(killed.status).toBe('stopped');
    // A runner evaluating now finds nothing to do; the naive bids stay on top.
    await rt.runner.evaluate('ev-stop');
    await rt.runner.evaluate('ev-kill');
    for (const { auctionId } of [a, b]) expect((await detail(auctionId)).topBidder).toBe(naive.address);
    expect((await rt.control.getStrategy('ev-stop'))!.bids).toHaveLength(1);
    await expect(rt.control.startStrategy({ strategy: 'nope', config: {} })).rejects.toThrow(
      /strategy: unknown "nope"/,
    );
    await expect(
      rt.control.startStrategy({ strategy: 'proxy-max', config: { auctionId: a.auctionId } }),
    ).rejects.toThrow(/maxBid/);
    await rt.control.killSwitch(false);
  });
});
