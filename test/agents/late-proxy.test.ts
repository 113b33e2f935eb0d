/**
 * late-proxy live against a naive bidder on the localnet (chain time warped between phases): it
 * bids only from just before the snipe window, re-plans after each extension, never bids above
 * its maximum, and wins when its maximum is the higher one.
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
import {
  agentsPrefix,
  auctionDetail,
  bidsBy,
  cleanupPrefix,
  finishedInstance,
  startAgents,
  until,
  warpTo,
} from './agents-env.js';

const LEAD_MS = 5_000;

describe('late-proxy against a naive bidder', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let naive: Wallet;
  let agent: Wallet;
  let rt: Runtime;
  const prefix = agentsPrefix('late');

  beforeAll(async () => {
    env = await startAuctionApi('agents-late', { indexer: true });
    seller = await walletWithKey(env);
    naive = await walletWithKey(env);
    agent = await walletWithKey(env);
    rt = await startAgents(env, agent, prefix);
  });
  afterAll(async () => {
    await rt?.close(true);
    await cleanupPrefix(prefix);
    await env?.close();
  });

  const detail = (id: string) => auctionDetail(env, seller, id);
  const ourBids = (id: string) => bidsBy(env, seller, id, agent);

  async function englishAuction() {
    const { auctionId } = await createViaApi(env, seller, {
      startingPrice: 1,
      minBidIncrement: 0.1,
      durationHours: 0.25,
      snipeProtectionEnabled: true,
      snipeExtensionSeconds: 300,
    });
    await bidViaApi(env, naive, auctionId, 1);
    return auctionId;
  }

  /** Until the runner planned its next wake-up at `armAt` (it re-planned for the current end). */
  const plannedFor = (id: string, armAt: number) =>
    until(
      `a plan for ${armAt}`,
      async () => (await rt.control.getStrategy(id))!,
      (s) => s.nextWakeAt === armAt,
      20_000,
    );

  it('stays silent until just before the window, re-plans after an extension, and wins with the higher maximum', async () => {
    const auctionId = await englishAuction();
    const first = await detail(auctionId);
    const windowMs = first.snipeWindowSeconds * 1000;
    await rt.control.startStrategy({
      id: 'late-win',
      strategy: 'late-proxy',
      mode: 'live',
      config: { auctionId, maxBid: 3, leadSeconds: LEAD_MS / 1000 },
    });
    const arm1 = first.endTime - windowMs - LEAD_MS;
    await plannedFor('late-win', arm1);
    expect(await ourBids(auctionId)).toEqual([]);

    await warpTo(env, arm1, 3);
    const [bid1] = await until(
      'our first bid',
      () => ourBids(auctionId),
      (b) => b.length === 1,
      20_000,
    );
    expect(bid1!.amount).toBe(1.1);
    expect(bid1!.timestamp).toBeGreaterThanOrEqual(arm1);
    expect(bid1!.timestamp).toBeLessThan(first.endTime - windowMs);

    // The naive bidder answers inside the snipe window: the end moves by 300 s.
    await warpTo(env, first.endTime, 30);
    await bidViaApi(env, naive, auctionId, 2.5);
    const extended = await detail(auctionId);
    expect(extended.endTime).toBe(first.endTime + 300_000);
    const arm2 = extended.endTime - windowMs - LEAD_MS;
    await plannedFor('late-win', arm2);
    expect(await ourBids(auctionId)).toHaveLength(1);

    await warpTo(env, arm2, 3);
    const bids = await until(
      'our second bid',
      () => ourBids(auctionId),
      (b) => b.length === 2,
      20_000,
    );
    expect(bids[1]!.amount).toBe(2.6);
    expect(bids[1]!.timestamp).toBeGreaterThanOrEqual(arm2);
    expect(bids[1]!.timestamp).toBeLessThan(extended.endTime - windowMs);

    await warpTo(env, extended.endTime, -2);
    const done = await finishedInstance(rt, 'late-win', 20_000);
    expect(done).toMatchObject({ status: 'done', outcome: 'won' });
    const end = await detail(auctionId);
    expect(end.topBidder).toBe(agent.address);
    expect(end.endTime).toBe(extended.endTime);
    expect(Math.max(...(await ourBids(auctionId)).map((b) => b.amount))).toBeLessThanOrEqual(3);
  });

  it('never bids above its maximum and gives up when the naive bidder goes higher', async () => {
    const auctionId = await englishAuction();
    const first = await detail(auctionId);
    const windowMs = first.snipeWindowSeconds * 1000;
    await rt.control.startStrategy({
      id: 'late-lose',
      strategy: 'late-proxy',
      mode: 'live',
      config: { auctionId, maxBid: 3, leadSeconds: LEAD_MS / 1000 },
    });
    const arm1 = first.endTime - windowMs - LEAD_MS;
    await plannedFor('late-lose', arm1);
    await warpTo(env, arm1, 3);
    await until(
      'our first bid',
      () => ourBids(auctionId),
      (b) => b.length === 1,
      20_000,
    );

    await warpTo(env, first.endTime, 30);
    await bidViaApi(env, naive, auctionId, 3.5);
    const extended = await detail(auctionId);
    const arm2 = extended.endTime - windowMs - LEAD_MS;
    await plannedFor('late-lose', arm2);
    await warpTo(env, arm2, 3);
    const done = await finishedInstance(rt, 'late-lose', 20_000);
    expect(done).toMatchObject({ status: 'done', outcome: 'lost' });
    expect(done.reason).toMatch(/above our maximum/);
    const ours = await ourBids(auctionId);
    expect(ours.map((b) => b.amount)).toEqual([1.1]);
    expect((await detail(auctionId)).topBidder).toBe(naive.address);
  });
});
