/**
 * Analytics and profiles against a scripted market history on a real localnet: auctions created,
 * bid on, bought, settled and cancelled over the API, then every number checked exactly, before
 * and after a 25 h clock warp, and again after the event log is replayed from the start.
 */
import { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANALYTICS_GROUP,
  type AnalyticsConsumer,
  startAnalyticsConsumer,
} from '../../src/analytics/analytics-consumer.js';
import { analyticsKeys } from '../../src/analytics/analytics-keys.js';
import { fetchAuction } from '../../src/chain/auction-accounts.js';
import { lamportsToSol } from '../../src/core/money.js';
import type { CollectionsAnalytics, MarketAnalytics } from '../../src/http/schemas/analytics.js';
import type { UserProfile } from '../../src/http/schemas/users.js';
import { call } from '../helpers/api.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  expectOk,
  signAndSend,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { SOL } from '../helpers/localnet.js';

const HOUR = 3600;
const DAY = 86_400;

describe('analytics and profiles over a scripted market history', () => {
  let env: AuctionApiEnv;
  let consumer: AnalyticsConsumer;
  let clock = Date.now();
  let s1: Wallet;
  let s2: Wallet;
  let b1: Wallet;
  let b2: Wallet;
  let b3: Wallet;
  let lastSignature = '';
  const ids: Record<string, string> = {};
  const signatures: Record<string, string> = {};
  let dutchPrice = 0n;
  const saleSeconds: Record<string, number> = {};

  const get = async <T>(path: string): Promise<T> => {
    clock += 1_000; // past the chain-clock cache, so a warp is seen at once
    return expectOk(await call<T>(env.baseUrl, 'GET', path, { key: b1.key }));
  };
  const landed = async () => {
    await env.api.indexer!.caughtUp(lastSignature);
    await consumer.caughtUp();
  };
  const create = async (seller: Wallet, label: string, body: Record<string, unknown>) => {
    await env.t.localnet.registerDomain(`${label}.sol`, seller.keypair.publicKey);
    const data = expectOk(
      await call<{ auctionId: string; transaction: string }>(env.baseUrl, 'POST', '/auctions/create', {
        key: seller.key,
        body: {
          domainNames: [`${label}.sol`],
          startingPrice: 1,
          minBidIncrement: 0.1,
          durationHours: 1,
          ...body,
        },
      }),
    );
    lastSignature = await signAndSend(env.connection, data.transaction, seller.keypair);
    ids[label] = data.auctionId;
    signatures[`create ${label}`] = lastSignature;
  };
  const bid = async (bidder: Wallet, label: string, amount: number) => {
    lastSignature = await bidViaApi(env, bidder, ids[label]!, amount);
    signatures[`bid ${label} ${amount}`] = lastSignature;
  };
  const settle = async (label: string) => {
    const data = expectOk(
      await call<{ transactionId: string }>(env.baseUrl, 'POST', `/auctions/${ids[label]}/settle`, {
        key: b1.key,
      }),
    );
    lastSignature = data.transactionId;
    signatures[`settle ${label}`] = lastSignature;
  };
  const sold = async (label: string) => {
    const account = await fetchAuction(env.connection, new PublicKey(ids[label]!));
    saleSeconds[label] = Number(account!.settledAt);
    return account!.finalPrice;
  };

  beforeAll(async () => {
    env = await startAuctionApi('analytics-history', { indexer: true, nowMs: () => clock });
    consumer = startAnalyticsConsumer({ redis: env.api.deps.redis, keys: env.api.deps.keys, blockMs: 100 });
    s1 = await walletWithKey(env);
    s2 = await walletWithKey(env, { using: s1.key });
    b1 = await walletWithKey(env, { using: s1.key });
    b2 = await walletWithKey(env, { using: s1.key });
    b3 = await walletWithKey(env, { using: s1.key });

    await create(s1, '123', { type: 'standard' });
    await create(s1, '4567', { type: 'dutch', startingPrice: 5, dutchEndPrice: 1 });
    const cancelled = await createViaApi(env, s1);
    ids['cancelled'] = cancelled.auctionId;
    signatures['create cancelled'] = cancelled.signature;
    await create(s1, '999', { type: 'standard', startingPrice: 4, durationHours: 48 });
    await create(s2, 'abc', { type: 'buy_now', startingPrice: 3, buyNowPrice: 3 });
    await create(s2, 'wxyz', { type: 'reserve', reservePrice: 10 });
    await create(s2, '888', { type: 'buy_now', startingPrice: 2.5, buyNowPrice: 2.5, durationHours: 48 });
    await create(s2, 'qrst', { type: 'reserve', reservePrice: 5, durationHours: 48 });

    await bid(b1, '123', 1);
    await bid(b2, '123', 1.5);
    await bid(b1, '123', 2);
    await bid(b2, '4567', 5);
    dutchPrice = await sold('4567');
    await bid(b3, 'abc', 3);
    await sold('abc');
    await bid(b3, 'wxyz', 2);
    const cancel = expectOk(
      await call<{ transaction: string }>(env.baseUrl, 'POST', `/auctions/${ids['cancelled']}/cancel`, {
        key: s1.key,
      }),
    );
    lastSignature = await signAndSend(env.connection, cancel.transaction, s1.keypair);
    signatures['cancel'] = lastSignature;

    await env.t.warp(HOUR + 1);
    await settle('123');
    await sold('123');
    await settle('wxyz');
    await landed();
  });
  afterAll(async () => {
    await consumer?.stop();
    await env?.close();
  });

  const prices = () => ({ '123': 2n * SOL, '4567': dutchPrice, abc: 3n * SOL });
  const volume = () => 5n * SOL + dutchPrice;
  /** Daily volumes of `sales` (label → lamports) for the 7 chain days up to `nowSeconds`. */
  const trend = (sales: Record<string, bigint>, nowSeconds: number) => {
    const today = Math.floor(nowSeconds / DAY);
    return Array.from({ length: 7 }, (_, i) =>
      lamportsToSol(
        Object.entries(sales)
          .filter(([label]) => Math.floor(saleSeconds[label]! / DAY) === today - 6 + i)
          .reduce((s, [, v]) => s + v, 0n),
      ),
    );
  };

  it('counts the market: 24 h window, all-time volume, buyers, sellers, top domains, active types', async () => {
    expect(dutchPrice).toBeGreaterThan(1n * SOL);
    expect(dutchPrice).toBeLessThanOrEqual(5n * SOL);
    const top = Object.entries(prices())
      .sort(([, a], [, b]) => (a === b ? 0 : a > b ? -1 : 1))
      .map(([label, price]) => ({
        domain: `${label}.sol`,
        sales: 1,
        averagePrice: lamportsToSol(price),
        lastSalePrice: lamportsToSol(price),
      }));
    expect(await get<MarketAnalytics>('/analytics/market')).toEqual({
      activeAuctions: 3,
      completed24h: 4,
      totalVolume24h: lamportsToSol(volume()),
      averagePrice24h: lamportsToSol(volume() / 3n),
      totalEverVolume: lamportsToSol(volume()),
      uniqueBuyers: 3,
      uniqueSellers: 2,
      topDomains: top,
      auctionTypeDistribution: { standard: 1, dutch: 0, reserve: 1, buy_now: 1 },
    });
  });

  it('counts each collection: active, completed, volumes, floor and a 7-day trend', async () => {
    const now = Number(await env.t.chainTime());
    const { collections } = await get<CollectionsAnalytics>('/analytics/collections');
    const bySlug = Object.fromEntries(collections.map(({ lastUpdated: _, ...c }) => [c.slug, c]));
    expect(Object.keys(bySlug)).toEqual(['3-digit', '4-digit', '5-digit', '3-letter', '4-letter', 'emoji']);
    expect(bySlug['3-digit']).toMatchObject({
      activeCount: 2,
      completedCount: 1,
      totalVolume: 2,
      volume24h: 2,
      floorPrice: 2.5,
      averagePrice: 2,
      trend: trend({ '123': 2n * SOL }, now),
    });
    const dutch = lamportsToSol(dutchPrice);
    expect(bySlug['4-digit']).toMatchObject({
      activeCount: 0,
      completedCount: 1,
      totalVolume: dutch,
      volume24h: dutch,
      floorPrice: 0,
      averagePrice: dutch,
      trend: trend({ '4567': dutchPrice }, now),
    });
    expect(bySlug['3-letter']).toMatchObject({
      activeCount: 0,
      completedCount: 1,
      totalVolume: 3,
      volume24h: 3,
    });
    expect(bySlug['4-letter']).toMatchObject({
      activeCount: 1,
      completedCount: 0,
      totalVolume: 0,
      floorPrice: 1,
    });
    expect(bySlug['5-digit']).toMatchObject({
      activeCount: 0,
      completedCount: 0,
      trend: [0, 0, 0, 0, 0, 0, 0],
    });
  });

  it("profiles a buyer and a seller, with the seller's SNS primary domain", async () => {
    await env.t.localnet.registerDomain('alice-main.sol', s1.keypair.publicKey);
    await setPrimaryDomain(env, s1.address, 'alice-main.sol');
    const buyer = await get<UserProfile>(`/users/${b2.address}`);
    expect(buyer.registryName).toBeNull();
    expect(buyer.stats).toEqual({
      totalAuctionsCreated: 0,
      totalAuctionsWon: 1,
      totalBidsPlaced: 2,
      totalVolumeTraded: lamportsToSol(dutchPrice),
      averageBidSize: lamportsToSol((1_500_000_000n + dutchPrice) / 2n),
      winRate: 50,
    });
    expect(buyer.recentActivity.map((a) => [a.type, a.domain, a.amount, a.transactionId])).toEqual([
      ['auction_won', '4567.sol', lamportsToSol(dutchPrice), signatures['bid 4567 5']],
      ['bid_placed', '4567.sol', lamportsToSol(dutchPrice), signatures['bid 4567 5']],
      ['bid_placed', '123.sol', 1.5, signatures['bid 123 1.5']],
    ]);
    expect((await get<UserProfile>(`/users/${b1.address}`)).stats).toMatchObject({
      totalAuctionsWon: 1,
      totalBidsPlaced: 2,
      averageBidSize: 1.5,
      winRate: 100,
    });

    const seller = await get<UserProfile>(`/users/${s1.address}`);
    expect(seller.registryName).toBe('alice-main.sol');
    expect(seller.stats).toEqual({
      totalAuctionsCreated: 4,
      totalAuctionsWon: 0,
      totalBidsPlaced: 0,
      totalVolumeTraded: lamportsToSol(2n * SOL + dutchPrice),
      averageBidSize: 0,
      winRate: 0,
    });
    expect(seller.recentActivity.map((a) => [a.type, a.auctionId, a.amount, a.transactionId])).toEqual([
      ['auction_sold', ids['123'], 2, signatures['settle 123']],
      ['auction_cancelled', ids['cancelled'], null, signatures['cancel']],
      ['auction_sold', ids['4567'], lamportsToSol(dutchPrice), signatures['bid 4567 5']],
      ['auction_created', ids['999'], 4, signatures['create 999']],
      ['auction_created', ids['cancelled'], 1, signatures['create cancelled']],
      ['auction_created', ids['4567'], 5, signatures['create 4567']],
      ['auction_created', ids['123'], 1, signatures['create 123']],
    ]);
    const [sale] = seller.recentActivity;
    expect(sale!.timestamp).toBe(saleSeconds['123']! * 1000);
  });

  it('drops the 24 h windows after a 25 h warp while all-time numbers stay', async () => {
    const before = await get<MarketAnalytics>('/analytics/market');
    const now = Number(await env.t.warp(25 * HOUR));
    expect(await get<MarketAnalytics>('/analytics/market')).toEqual({
      ...before,
      completed24h: 0,
      totalVolume24h: 0,
      averagePrice24h: 0,
    });
    const { collections } = await get<CollectionsAnalytics>('/analytics/collections');
    const digits = collections.find((c) => c.slug === '3-digit')!;
    expect(digits).toMatchObject({ volume24h: 0, totalVolume: 2, activeCount: 2 });
    expect(digits.trend).toEqual(trend({ '123': 2n * SOL }, now));
  });

  it('changes nothing when the event log is replayed from the start', async () => {
    // Collections without any event are stamped with the time of the response, not of an event.
    const collectionsNow = async () =>
      (await get<CollectionsAnalytics>('/analytics/collections')).collections.map((c) =>
        c.completedCount + c.activeCount > 0 ? c : { ...c, lastUpdated: 0 },
      );
    const market = await get<MarketAnalytics>('/analytics/market');
    const collections = await collectionsNow();
    const profiles = await Promise.all([s1, b1, b2, b3].map((w) => get<UserProfile>(`/users/${w.address}`)));
    const { redis, keys } = env.api.deps;
    await redis.xgroup('SETID', keys.eventLog(), ANALYTICS_GROUP, '0');
    await consumer.caughtUp();
    expect(await get<MarketAnalytics>('/analytics/market')).toEqual(market);
    expect(await collectionsNow()).toEqual(collections);
    for (const [i, w] of [s1, b1, b2, b3].entries())
      expect(await get<UserProfile>(`/users/${w.address}`)).toEqual(profiles[i]);
    const [last] = await redis.xrevrange(keys.eventLog(), '+', '-', 'COUNT', 1);
    expect(await redis.get(analyticsKeys(keys).appliedThrough())).toBe(last![0]);
  });
});

async function setPrimaryDomain(env: AuctionApiEnv, owner: string, name: string): Promise<void> {
  const response = await fetch(env.t.localnet.rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'localnet_setPrimaryDomain',
      params: [owner, name],
    }),
  });
  const body = (await response.json()) as { error?: unknown };
  expect(body.error).toBeUndefined();
}
