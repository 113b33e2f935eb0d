import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import { execTransaction } from './transaction.js';

/**
 * Hidden reserve prices (lamports) of reserve auctions, kept by the service because the chain only
 * holds their commitment: the keeper reveals them at settlement. Readable by the seller's keys only
 * (the routes enforce that); losing one makes its auction unsettleable with bids, hence AOF Redis.
 */
export class ReserveStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Stores the reserve and, in the same transaction, bumps the version the index's page cache reads. */
  async put(auctionId: string, lamports: bigint): Promise<void> {
    await execTransaction(
      this.redis
        .multi()
        .set(this.keys.auctionReserve(auctionId), lamports.toString())
        .incr(this.keys.auctionReservesVersion()),
    );
  }

  async get(auctionId: string): Promise<bigint | null> {
    const value = await this.redis.get(this.keys.auctionReserve(auctionId));
    return value === null ? null : BigInt(value);
  }

  /** Reserves of several auctions in one round trip, keyed by id (absent when unknown). */
  async getMany(auctionIds: readonly string[]): Promise<Map<string, bigint>> {
    const found = new Map<string, bigint>();
    if (auctionIds.length === 0) return found;
    const values = await this.redis.mget(...auctionIds.map((id) => this.keys.auctionReserve(id)));
    values.forEach((value, i) => {
      if (value !== null) found.set(auctionIds[i]!, BigInt(value));
    });
    return found;
  }
}
