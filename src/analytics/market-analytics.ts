/**
 * Reads of the analytics aggregates: a handful of Redis reads per request, whatever the history.
 * 24 h windows are the last 24 hourly buckets up to chain now (so a clock warp moves them);
 * active counts and floors come from the auction index at chain now.
 */
import type { Redis } from 'ioredis';
import type { ChainClock } from '../chain/chain-clock.js';
import type { Address } from '../core/address.js';
import { lamportsToSol } from '../core/money.js';
import { AUCTION_TYPES } from '../core/program/auction-account.js';
import type { CollectionsAnalytics, MarketAnalytics } from '../http/schemas/analytics.js';
import type { AuctionIndex } from '../indexer/auction-index.js';
import { listItem } from '../indexer/auction-index-query.js';
import type { RedisKeys } from '../redis/keys.js';
import { type AnalyticsKeys, analyticsKeys, DAY_SECONDS, HOUR_SECONDS } from './analytics-keys.js';
import { COLLECTIONS } from './collections.js';

const TOP_DOMAINS = 10;
const WINDOW_HOURS = 24;
const TREND_DAYS = 7;

export interface AnalyticsReadDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly auctionIndex: AuctionIndex;
  readonly chainClock: ChainClock;
}

const big = (value: string | null | undefined): bigint => BigInt(value || '0');
const sol = (value: string | null | undefined): number => lamportsToSol(big(value));
const sum = (values: readonly (string | null)[]): bigint => values.reduce((s, v) => s + big(v), 0n);
const average = (total: bigint, count: bigint): number => (count === 0n ? 0 : lamportsToSol(total / count));

/** The smallest of `values`, 0 when there are none. */
function lowest(values: readonly bigint[]): bigint {
  let min: bigint | null = null;
  for (const v of values) if (min === null || v < min) min = v;
  return min ?? 0n;
}

/** The `count` bucket ids up to and including the one holding `nowSeconds`, oldest first. */
function buckets(nowSeconds: bigint, size: number, count: number): number[] {
  const current = Number(nowSeconds) / size;
  const last = Math.floor(current);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

export class AnalyticsReader {
  private readonly k: AnalyticsKeys;

  constructor(private readonly deps: AnalyticsReadDeps) {
    this.k = analyticsKeys(deps.keys);
  }

  async market(): Promise<MarketAnalytics> {
    const { redis, auctionIndex, chainClock } = this.deps;
    const now = await chainClock.now();
    const hours = buckets(now, HOUR_SECONDS, WINDOW_HOURS);
    const field = (name: string) => hours.map((h) => `${h}:${name}`);
    const [activeByType, totals, volume24h, sales24h, settled24h, buyers, sellers, top] = await Promise.all([
      Promise.all(
        AUCTION_TYPES.map(async (type) => {
          const page = await auctionIndex.query(
            { status: 'active', type, sortBy: 'endTime', sortOrder: 'asc', page: 1, pageSize: 1 },
            now,
          );
          return page.total;
        }),
      ),
      redis.hmget(this.k.market(), 'volume'),
      redis.hmget(this.k.marketHourly(), ...field('volume')),
      redis.hmget(this.k.marketHourly(), ...field('sales')),
      redis.hmget(this.k.marketHourly(), ...field('settled')),
      redis.scard(this.k.buyers()),
      redis.scard(this.k.sellers()),
      redis.zrevrange(this.k.topDomains(), 0, TOP_DOMAINS - 1),
    ]);
    const topDomains = await Promise.all(
      top.map(async (domain) => {
        const [sales, volume, last] = await redis.hmget(this.k.domain(domain), 'sales', 'volume', 'last');
        return {
          domain,
          sales: Number(sales ?? 0),
          averagePrice: average(big(volume), big(sales)),
          lastSalePrice: sol(last),
        };
      }),
    );
    const distribution = Object.fromEntries(AUCTION_TYPES.map((t, i) => [t, activeByType[i] ?? 0]));
    return {
      activeAuctions: activeByType.reduce((s, n) => s + n, 0),
      completed24h: Number(sum(settled24h)),
      totalVolume24h: lamportsToSol(sum(volume24h)),
      averagePrice24h: average(sum(volume24h), sum(sales24h)),
      totalEverVolume: sol(totals[0]),
      uniqueBuyers: buyers,
      uniqueSellers: sellers,
      topDomains,
      auctionTypeDistribution: distribution as MarketAnalytics['auctionTypeDistribution'],
    };
  }

  async collections(): Promise<CollectionsAnalytics> {
    const { redis } = this.deps;
    const now = await this.deps.chainClock.now();
    const generatedAt = Date.now();
    const hours = buckets(now, HOUR_SECONDS, WINDOW_HOURS).map(String);
    const days = buckets(now, DAY_SECONDS, TREND_DAYS).map(String);
    const collections = await Promise.all(
      COLLECTIONS.map(async ({ slug, name }) => {
        const [[sales, volume, updated], hourly, daily, open] = await Promise.all([
          redis.hmget(this.k.collection(slug), 'sales', 'volume', 'updated'),
          redis.hmget(this.k.collectionHourly(slug), ...hours),
          redis.hmget(this.k.collectionDaily(slug), ...days),
          redis.smembers(this.k.collectionOpen(slug)),
        ]);
        const active = await this.activePrices(open as Address[], now);
        return {
          slug,
          name,
          activeCount: active.length,
          completedCount: Number(sales ?? 0),
          totalVolume: sol(volume),
          volume24h: lamportsToSol(sum(hourly)),
          floorPrice: lamportsToSol(lowest(active)),
          averagePrice: average(big(volume), big(sales)),
          trend: daily.map((v) => sol(v)),
          lastUpdated: updated ? Number(updated) : generatedAt,
        };
      }),
    );
    return { collections, generatedAt };
  }

  /** Current prices (lamports) of the auctions among `auctionIds` that are active at `now`. */
  private async activePrices(auctionIds: readonly Address[], now: bigint): Promise<bigint[]> {
    const auctions = await Promise.all(auctionIds.map((id) => this.deps.auctionIndex.get(id)));
    return auctions.flatMap((auction) => {
      if (!auction) return [];
      const item = listItem(auction, now);
      return item.status === 'active' ? [item.currentPrice] : [];
    });
  }
}
