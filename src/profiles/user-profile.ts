/**
 * A wallet's profile: its counters and latest activities from the analytics aggregates (kept by
 * the analytics consumer), and its registered name from its SNS primary domain (cached briefly).
 */
import { type Connection, PublicKey } from '@solana/web3.js';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type AnalyticsKeys, analyticsKeys, RECENT_ACTIVITY } from '../analytics/analytics-keys.js';
import type { StoredActivity } from '../analytics/event-effects.js';
import { lamportsToSol } from '../core/money.js';
import type { UserProfile } from '../http/schemas/users.js';
import type { RedisKeys } from '../redis/keys.js';
import { readPrimaryDomain } from './sns-primary-domain.js';

const PRIMARY_DOMAIN_TTL_SECONDS = 60;

export interface ProfileDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly connection: Connection;
  readonly logger?: Logger;
}

export class UserProfiles {
  private readonly k: AnalyticsKeys;

  constructor(private readonly deps: ProfileDeps) {
    this.k = analyticsKeys(deps.keys);
  }

  async profile(address: string): Promise<UserProfile> {
    const { redis } = this.deps;
    const [[created, won, bids, bidVolume, volume], participated, activity, registryName] = await Promise.all(
      [
        redis.hmget(this.k.user(address), 'created', 'won', 'bids', 'bidVolume', 'volume'),
        redis.scard(this.k.userAuctions(address)),
        redis.lrange(this.k.userActivity(address), 0, RECENT_ACTIVITY - 1),
        this.registryName(address),
      ],
    );
    const bidCount = BigInt(bids ?? 0);
    const wins = Number(won ?? 0);
    return {
      address,
      registryName,
      stats: {
        totalAuctionsCreated: Number(created ?? 0),
        totalAuctionsWon: wins,
        totalBidsPlaced: Number(bidCount),
        totalVolumeTraded: lamportsToSol(BigInt(volume ?? 0)),
        averageBidSize: bidCount === 0n ? 0 : lamportsToSol(BigInt(bidVolume ?? 0) / bidCount),
        winRate: participated === 0 ? 0 : Math.round((wins / participated) * 10_000) / 100,
      },
      recentActivity: activity.map((json) => {
        const a = JSON.parse(json) as StoredActivity;
        return { ...a, amount: a.amount === null ? null : lamportsToSol(BigInt(a.amount)) };
      }),
    };
  }

  /** The primary domain, from a short cache; a failing RPC read answers null (and is not cached). */
  private async registryName(address: string): Promise<string | null> {
    const key = this.k.primaryDomain(address);
    const cached = await this.deps.redis.get(key);
    if (cached !== null) return cached || null;
    try {
      const name = await readPrimaryDomain(this.deps.connection, new PublicKey(address));
      await this.deps.redis.set(key, name ?? '', 'EX', PRIMARY_DOMAIN_TTL_SECONDS);
      return name;
    } catch (err) {
      this.deps.logger?.warn({ err, address }, 'could not read the primary domain');
      return null;
    }
  }
}
