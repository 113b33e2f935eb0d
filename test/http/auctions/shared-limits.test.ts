/**
 * SPEC: fixed 60-second buckets, shared across instances, per endpoint. Two API instances on one
 * Redis prefix count one key's bids together; the limiter's wall clock is driven by the test so the
 * next minute comes at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../../helpers/api.js';
import {
  type AuctionApiEnv,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../../helpers/auction-api.js';
import { expectError } from '../fixtures.js';

const MINUTE = 60_000;

describe('rate limits shared by two API instances', () => {
  let env: AuctionApiEnv;
  let second: TestApi;
  let seller: Wallet;
  let bidder: Wallet;
  // 15 s into a wall-clock minute: 45 s remain in the bucket.
  let clock = (Math.floor(Date.now() / MINUTE) + 1) * MINUTE + 15_000;

  beforeAll(async () => {
    env = await startAuctionApi('http-auction-limits', { nowMs: () => clock });
    second = await startTestApi('http-auction-limits-b', {
      localnet: env.t.localnet,
      redisPrefix: env.api.deps.keys.prefix,
      reserveSecret: env.api.deps.chain.reserveSecret,
      nowMs: () => clock,
    });
    seller = await walletWithKey(env);
    bidder = await walletWithKey(env, { using: seller.key });
  });
  afterAll(async () => {
    // The first instance owns the shared prefix and cleans it up.
    await second?.app.close();
    await second?.deps.close();
    await env?.close();
  });

  it('accepts 60 bids a minute from one key across both instances, refuses the 61st, and resets next minute', async () => {
    const { auctionId } = await createViaApi(env, seller);
    const bid = (baseUrl: string) =>
      call(baseUrl, 'POST', `/auctions/${auctionId}/bid`, { key: bidder.key, body: { bidAmount: 1 } });

    const instances = [env.baseUrl, second.baseUrl];
    const accepted = await Promise.all(Array.from({ length: 60 }, (_, i) => bid(instances[i % 2]!)));
    expect(accepted.map((r) => r.status)).toEqual(Array(60).fill(200));
    const remaining = accepted
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));

    for (const baseUrl of instances) {
      const refused = await bid(baseUrl);
      expectError(refused, 429, 'RATE_LIMITED', 'Rate limit exceeded. Try again in 45 seconds.');
      expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset')).toBe('45');
      expect(refused.headers.get('retry-after')).toBe('45');
    }

    clock += 45_000;
    const nextMinute = await bid(second.baseUrl);
    expect(nextMinute.status).toBe(200);
    expect(nextMinute.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});
