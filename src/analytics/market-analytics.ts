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
import {
  type AnalyticsKeys,
  analyticsKeys,
  DAY_SECONDS,
  HOUR_SECONDS,
  TREND_DAYS,
  WINDOW_HOURS,
} from './analytics-keys.js';
import { COLLECTIONS } from './collections.js';
import { FiguresMemo } from './figures-memo.js';

const TOP_DOMAINS = 10;

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
  private readonly marketMemo = new FiguresMemo<MarketAnalytics>();
  private readonly collectionsMemo = new FiguresMemo<CollectionsAnalytics>();

  constructor(private readonly deps: AnalyticsReadDeps) {
    this.k = analyticsKeys(deps.keys);
  }

  async market(): Promise<MarketAnalytics> {
    const { now, state } = await this.worldState();
    return this.marketMemo.get(state, () => this.computeMarket(now));
  }

  async collections(): Promise<CollectionsAnalytics> {
    const { now, state } = await this.worldState();
    return this.collectionsMemo.get(state, () => this.computeCollections(now));
  }

  /** Chain now, and what identifies the indexed world at it (see FiguresMemo). */
  private async worldState(): Promise<{ now: bigint; state: string }> {
    const { redis, keys, chainClock } = this.deps;
    const [now, newest, applied] = await Promise.all([
      chainClock.now(),
      redis.xrevrange(keys.eventLog(), '+', '-', 'COUNT', 1),
      redis.get(this.k.appliedThrough()),
    ]);
    return { now, state: `${now}|${newest[0]?.[0] ?? ''}|${applied ?? ''}` };
  }

  private async computeMarket(now: bigint): Promise<MarketAnalytics> {
    const { redis, auctionIndex } = this.deps;
    const hours = buckets(now, HOUR_SECONDS, WINDOW_HOURS);
    const window = (measure: 'volume' | 'sales' | 'settled') =>
      hours.map((h) => this.k.marketHour(measure, h));
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
      redis.mget(window('volume')),
      redis.mget(window('sales')),
      redis.mget(window('settled')),
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

  private async computeCollections(now: bigint): Promise<CollectionsAnalytics> {
    const { redis } = this.deps;
    const generatedAt = Date.now();
    const hours = buckets(now, HOUR_SECONDS, WINDOW_HOURS);
    const days = buckets(now, DAY_SECONDS, TREND_DAYS);
    const collections = await Promise.all(
      COLLECTIONS.map(async ({ slug, name }) => {
        const [[sales, volume, updated], hourly, daily, open] = await Promise.all([
          redis.hmget(this.k.collection(slug), 'sales', 'volume', 'updated'),
          redis.mget(hours.map((h) => this.k.collectionHour(slug, h))),
          redis.mget(days.map((d) => this.k.collectionDay(slug, d))),
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
