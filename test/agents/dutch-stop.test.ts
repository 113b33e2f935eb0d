/**
 * dutch-stop live on the localnet: the runner wakes exactly at the second the public price curve
 * crosses the stop (no polling of the price) and its bid lands in the first slot at or below it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../agents/runner/runtime.js';
import { dutchCrossingTime, dutchPrice } from '../../src/core/auction-rules/dutch-price.js';
import {
  type AuctionApiEnv,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { SOL } from '../helpers/localnet.js';
import { agentsPrefix, auctionDetail, cleanupPrefix, finishedInstance, startAgents } from './agents-env.js';

describe('dutch-stop', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let buyer: Wallet;
  let rt: Runtime;
  const prefix = agentsPrefix('dutch');

  beforeAll(async () => {
    env = await startAuctionApi('agents-dutch', { indexer: true });
    seller = await walletWithKey(env);
    buyer = await walletWithKey(env);
    rt = await startAgents(env, buyer, prefix);
  });
  afterAll(async () => {
    await rt?.close(true);
    await cleanupPrefix(prefix);
    await env?.close();
  });

  it('buys at a price at or below its stop, in the first second the curve crosses it', async () => {
    const { auctionId } = await createViaApi(env, seller, {
      type: 'dutch',
      startingPrice: 10,
      dutchEndPrice: 1,
      durationHours: 0.25,
    });
    const before = await auctionDetail(env, seller, auctionId);
    const schedule = {
      startingPrice: 10n * SOL,
      dutchFloor: 1n * SOL,
      startTs: BigInt(before.startTime / 1000),
      endTs: BigInt(before.endTime / 1000),
    };
    const stop = 7.3;
    const crossing = dutchCrossingTime(schedule, 7_300_000_000n)!;
    // Come within a few seconds of the crossing: the runner has to wait for it, not find it passed.
    await env.t.warp(Number(crossing - (await env.t.chainTime())) - 4);

    const started = await rt.control.startStrategy({
      id: 'dutch-1',
      strategy: 'dutch-stop',
      mode: 'live',
      config: { auctionId, stopPrice: stop },
    });
    expect(started.status).toBe('running');
    const done = await finishedInstance(rt, 'dutch-1', 30_000);
    expect(done).toMatchObject({ status: 'done', outcome: 'won' });
    expect(done.bids).toHaveLength(1);

    const after = await auctionDetail(env, seller, auctionId);
    expect(after.winner).toBe(buyer.address);
    expect(after.finalPrice!).toBeLessThanOrEqual(stop);
    const landedSecond = BigInt(after.bids[0]!.timestamp / 1000);
    expect(dutchPrice(schedule, landedSecond)).toBeLessThanOrEqual(7_300_000_000n);
    // The first second at or below the stop: one second earlier the price was still above it.
    expect(landedSecond).toBe(crossing);
    expect(dutchPrice(schedule, landedSecond - 1n)).toBeGreaterThan(7_300_000_000n);
  });
});
