/**
 * 200 bids queued at once by 200 strategy instances (dutch-stop and buy-now-under, paper mode: the
 * server validates and counts every bid, nothing is signed) on ONE key: the shared budget keeps
 * every minute bucket of the server at or under its limit, so no answer is a 429 and every bid is
 * made exactly once. The API's rate-limit clock and the budget's run 20× fast (same clock), so four
 * minute buckets pass in seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../agents/runner/runtime.js';
import {
  type AuctionApiEnv,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { agentsPrefix, cleanupPrefix, startAgents, until } from './agents-env.js';

const MINUTE = 60_000;
const SPEED = 20;
const realStart = Date.now();
// 1 s into a wall-clock minute, then 20× real time.
const clockStart = (Math.floor(Date.now() / MINUTE) + 1) * MINUTE + 1_000;
const clock = () => clockStart + (Date.now() - realStart) * SPEED;

describe('one key, many strategies: the shared bid budget', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let bidder: Wallet;
  let rt: Runtime;
  const prefix = agentsPrefix('budget');
  const bidAnswers: { status: number; at: number }[] = [];

  beforeAll(async () => {
    env = await startAuctionApi('agents-budget', { indexer: true, nowMs: clock });
    seller = await walletWithKey(env);
    bidder = await walletWithKey(env);
    rt = await startAgents(
      env,
      bidder,
      prefix,
      { concurrency: 100, pollMs: 1000 },
      {
        budgetNowMs: clock,
        onResponse: (r) => {
          if (r.method === 'POST' && r.path.endsWith('/bid'))
            bidAnswers.push({ status: r.status, at: clock() });
        },
      },
    );
  }, 60_000);
  afterAll(async () => {
    await rt?.close(true);
    await cleanupPrefix(prefix);
    await env?.close();
  });

  it('200 queued bids: no 429 from the server, none lost, at most 60 per server minute', {
    timeout: 120_000,
  }, async () => {
    const dutch = await createViaApi(env, seller, { type: 'dutch', startingPrice: 5, dutchEndPrice: 1 });
    const buyNow = await createViaApi(env, seller, { type: 'buy_now', startingPrice: 2, buyNowPrice: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const spec =
        i % 2 === 0
          ? { strategy: 'dutch-stop', config: { auctionId: dutch.auctionId, stopPrice: 6 } }
          : { strategy: 'buy-now-under', config: { auctionId: buyNow.auctionId, maxPrice: 3 } };
      ids.push((await rt.control.startStrategy({ id: `s${i}`, mode: 'paper', ...spec })).id);
    }
    const all = await until(
      '200 instances to finish',
      () => rt.control.listStrategies(),
      (list) => list.length === 200 && list.every((s) => s.status !== 'running'),
      100_000,
    );
    expect(all.map((s) => s.outcome)).toEqual(Array(200).fill('won'));
    expect(all.map((s) => s.bids.length)).toEqual(Array(200).fill(1));

    expect(bidAnswers).toHaveLength(200);
    expect(bidAnswers.filter((a) => a.status !== 200)).toEqual([]);
    const perMinute = new Map<number, number>();
    for (const a of bidAnswers)
      perMinute.set(Math.floor(a.at / MINUTE), (perMinute.get(Math.floor(a.at / MINUTE)) ?? 0) + 1);
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(60);
    // 200 non-urgent bids at 50 a minute (10 slots stay reserved for timed bids) need four buckets.
    expect(perMinute.size).toBeGreaterThanOrEqual(4);
  });
});
