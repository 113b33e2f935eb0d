import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import { RedisLease } from './lease.js';

/** The outcome of a settled auction, as POST /auctions/:id/settle reports it. */
export interface SettlementRecord {
  readonly auctionId: string;
  readonly winner: string | null;
  /** Lamports; null when nothing was sold. */
  readonly finalPrice: bigint | null;
  /** null for auctions without a hidden reserve. */
  readonly reserveMet: boolean | null;
  /** Signature of the transaction that settled the auction (the bid itself for dutch/buy_now). */
  readonly transactionId: string;
  /** Unix ms, chain time of the settlement. */
  readonly settledAt: number;
}

type StoredRecord = Omit<SettlementRecord, 'finalPrice'> & { readonly finalPrice: string | null };

/**
 * Settlement records and the per-auction lock that makes settling idempotent across instances: the
 * lock holder sends the one settle transaction and stores the record; everybody else reads it.
 */
export class SettlementStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async get(auctionId: string): Promise<SettlementRecord | null> {
    const json = await this.redis.get(this.keys.settlement(auctionId));
    if (json === null) return null;
    const stored = JSON.parse(json) as StoredRecord;
    return { ...stored, finalPrice: stored.finalPrice === null ? null : BigInt(stored.finalPrice) };
  }

  async put(record: SettlementRecord): Promise<void> {
    const stored: StoredRecord = { ...record, finalPrice: record.finalPrice?.toString() ?? null };
    await this.redis.set(this.keys.settlement(record.auctionId), JSON.stringify(stored));
  }

  /** `SET NX PX` on the auction's settle lock; release it with `lease.release()`. */
  lock(auctionId: string, ttlMs: number): RedisLease {
    return new RedisLease(this.redis, this.keys.settleLock(auctionId), ttlMs);
  }

  async isLocked(auctionId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.settleLock(auctionId))) === 1;
  }
}
