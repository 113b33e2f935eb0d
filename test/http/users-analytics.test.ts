import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../helpers/api.js';
import { type CreatedKey, createKey, expectError, randomWallet } from './fixtures.js';

describe('user profiles and analytics over HTTP', () => {
  let api: TestApi;
  let developer: CreatedKey;
  let readonly: CreatedKey;

  beforeAll(async () => {
    api = await startTestApi('http-users-analytics');
    developer = await createKey(api.baseUrl);
    readonly = await createKey(api.baseUrl, { type: 'readonly' });
  });
  afterAll(() => api?.close());

  it('returns the full profile of a wallet', async () => {
    const address = randomWallet();
    const res = await call(api.baseUrl, 'GET', `/users/${address}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      timestamp: expect.any(Number),
      data: {
        address,
        registryName: null,
        stats: {
          totalAuctionsCreated: 0,
          totalAuctionsWon: 0,
          totalBidsPlaced: 0,
          totalVolumeTraded: 0,
          averageBidSize: 0,
          winRate: 0,
        },
        recentActivity: [],
      },
    });
  });

  it.each([
    'not-an-address',
    '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl',
    '1111111111111111111111111111111111111111111111',
    '3yZe7d',
  ])('refuses the address %s with 400 naming it', async (address) => {
    expectError(await call(api.baseUrl, 'GET', `/users/${address}`), 400, 'INVALID_REQUEST', /path\.address/);
  });

  it('returns market analytics with every field and all four auction types', async () => {
    const res = await call(api.baseUrl, 'GET', '/analytics/market');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      activeAuctions: 0,
      completed24h: 0,
      totalVolume24h: 0,
      averagePrice24h: 0,
      totalEverVolume: 0,
      uniqueBuyers: 0,
      uniqueSellers: 0,
      topDomains: [],
      auctionTypeDistribution: { standard: 0, dutch: 0, reserve: 0, buy_now: 0 },
    });
  });

  it('returns collection analytics stamped with generatedAt in ms', async () => {
    const before = Date.now();
    const res = await call<{ collections: unknown[]; generatedAt: number }>(
      api.baseUrl,
      'GET',
      '/analytics/collections',
    );
    expect(res.status).toBe(200);
    expect(res.body.data.collections).toEqual(
      ['3-digit', '4-digit', '5-digit', '3-letter', '4-letter', 'emoji'].map((slug) => ({
        slug,
        name: expect.any(String),
        activeCount: 0,
        completedCount: 0,
        totalVolume: 0,
        volume24h: 0,
        floorPrice: 0,
        averagePrice: 0,
        trend: [0, 0, 0, 0, 0, 0, 0],
        lastUpdated: res.body.data.generatedAt,
      })),
    );
    expect(res.body.data.generatedAt).toBeGreaterThanOrEqual(before);
    expect(res.body.data.generatedAt).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ['/users/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', '100', '1000'],
    ['/analytics/market', '50', '200'],
    ['/analytics/collections', '50', '200'],
  ])('limits %s at %s/min without a key and %s/min with one', async (path, anonymous, keyed) => {
    const [anon, withKey, withReadonly] = await Promise.all([
      call(api.baseUrl, 'GET', path),
      call(api.baseUrl, 'GET', path, { key: developer.key }),
      call(api.baseUrl, 'GET', path, { key: readonly.key }),
    ]);
    for (const res of [anon, withKey, withReadonly]) {
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
    }
    expect(anon.headers.get('x-ratelimit-limit')).toBe(anonymous);
    expect(withKey.headers.get('x-ratelimit-limit')).toBe(keyed);
    expect(withReadonly.headers.get('x-ratelimit-limit')).toBe(keyed);
    expect(Number(withKey.headers.get('x-ratelimit-remaining'))).toBe(Number(keyed) - 1);
  });

  it('refuses the 51st anonymous analytics call in a minute but still serves a key holder', async () => {
    // Buckets are aligned to the clock minute: if the minute turns during the burst, the count
    // restarts, so up to 2 × 51 calls are needed to fill one bucket past its limit.
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 102 && !refused; i++) {
      const res = await call(api.baseUrl, 'GET', '/analytics/collections');
      if (res.status === 429) refused = res;
    }
    expect(refused).toBeDefined();
    expectError(refused!, 429, 'RATE_LIMITED', /^Rate limit exceeded\. Try again in \d+ seconds\.$/);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(api.baseUrl, 'GET', '/analytics/collections', { key: developer.key })).status).toBe(
      200,
    );
  });
});
