/**
 * The analytics aggregates stay bounded however long the market runs: a month of sales (one
 * every 12 h of chain time) goes through the event log and the consumer, then every key is
 * checked. Time buckets (hourly for the 24 h figures, daily for the 7-day trend) carry a TTL
 * within their retention; what is kept for ever is one key per auction, wallet, domain or
 * collection and the all-time counters — no per-event or per-hour key without an expiry, and the
 * record of applied events is one stream id, not a set of event ids.
 */
import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_GROUP, startAnalyticsConsumer } from '../../src/analytics/analytics-consumer.js';
import {
  analyticsKeys,
  DAILY_RETENTION_SECONDS,
  HOURLY_RETENTION_SECONDS,
} from '../../src/analytics/analytics-keys.js';
import type { Address } from '../../src/core/address.js';
import type { AuctionEvent } from '../../src/core/program/events.js';
import { EventLog, eventId, type IndexedEvent } from '../../src/indexer/event-log.js';
import { createRedisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const SALES = 60;
const START = 1_767_225_600; // 2026-01-01, chain seconds
const SOL = 1_000_000_000n;

let t: TestRedis;
let keys: RedisKeys;

const address = () => Keypair.generate().publicKey.toBase58() as Address;

function indexed(events: AuctionEvent[], seconds: number): IndexedEvent[] {
  const signature = randomBytes(64).toString('hex');
  return events.map((event, index) => ({
    id: eventId(signature, index),
    signature,
    slot: seconds,
    blockTime: seconds,
    index,
    event,
  }));
}

/** One auction of the 3-digit collection: created, bid on, settled to the bidder 12 h later. */
function sale(i: number): IndexedEvent[] {
  const auction = address();
  const seller = address();
  const bidder = address();
  const created = START + i * 12 * 3600;
  const settled = created + 12 * 3600 - 60;
  const price = SOL + BigInt(i);
  return [
    ...indexed(
      [
        {
          name: 'AuctionCreated',
          data: {
            auction,
            seller,
            auctionType: 'standard',
            domains: [`${String(i).padStart(3, '0')}.sol`],
            startingPrice: SOL,
            minIncrement: SOL / 10n,
            buyNowPrice: 0n,
            dutchFloor: 0n,
            hasReserve: false,
            startTs: BigInt(created),
            endTs: BigInt(settled),
            snipeEnabled: false,
            snipeWindowSeconds: 0,
            snipeExtensionSeconds: 0,
            timestamp: BigInt(created),
          },
        },
      ],
      created,
    ),
    ...indexed(
      [
        {
          name: 'BidPlaced',
          data: {
            auction,
            bidder,
            amount: price,
            previousBidder: null,
            previousAmount: 0n,
            bidCount: 1,
            endTs: BigInt(settled),
            timestamp: BigInt(created + 60),
          },
        },
      ],
      created + 60,
    ),
    ...indexed(
      [
        {
          name: 'AuctionSettled',
          data: { auction, seller, winner: bidder, price, fee: 0n, timestamp: BigInt(settled) },
        },
      ],
      settled,
    ),
  ];
}

/** Every key of the analytics aggregates with its TTL (seconds; -1 = none) and type. */
async function analyticsKeyspace(): Promise<{ key: string; ttl: number; type: string }[]> {
  const base = keys.analytics('');
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await t.redis.scan(cursor, 'MATCH', `${base}*`, 'COUNT', 1_000);
    found.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return Promise.all(
    found.map(async (key) => ({
      key: key.slice(base.length),
      ttl: await t.redis.ttl(key),
      type: await t.redis.type(key),
    })),
  );
}

/** A key's shape: addresses, domains and numbers replaced by placeholders. */
const shape = (key: string) =>
  key
    .replace(/[1-9A-HJ-NP-Za-km-z]{32,44}/g, '<address>')
    .replace(/\d{3}\.sol/g, '<domain>')
    .replace(/(^|:)\d+(?=:|$)/g, '$1<n>');

beforeAll(async () => {
  t = await createTestRedis('analytics-bounded');
  keys = createRedisKeys(t.prefix);
  const log = new EventLog(t.redis, keys);
  for (let i = 0; i < SALES; i++) await log.append(sale(i));
  const consumer = startAnalyticsConsumer({ redis: t.redis, keys, blockMs: 100 });
  try {
    await consumer.caughtUp();
  } finally {
    await consumer.stop();
  }
});

afterAll(async () => {
  await t?.cleanup();
});

describe('analytics keys stay bounded', () => {
  it('gives every hourly and daily bucket a TTL within its retention', async () => {
    const keyspace = await analyticsKeyspace();
    const hourly = keyspace.filter((k) => k.key.includes(':hour:'));
    const daily = keyspace.filter((k) => k.key.includes(':day:'));
    // 60 sales, 12 h apart: their own hour each (market volume, sales, settled; the collection).
    expect(hourly).toHaveLength(SALES * 4);
    expect(daily).toHaveLength(SALES / 2);
    for (const k of hourly) expect(k.ttl, k.key).toBeGreaterThan(HOURLY_RETENTION_SECONDS - 60);
    for (const k of hourly) expect(k.ttl, k.key).toBeLessThanOrEqual(HOURLY_RETENTION_SECONDS);
    for (const k of daily) expect(k.ttl, k.key).toBeGreaterThan(DAILY_RETENTION_SECONDS - 60);
    for (const k of daily) expect(k.ttl, k.key).toBeLessThanOrEqual(DAILY_RETENTION_SECONDS);
    // Long enough for the windows read: a day (plus the hour) and the 7-day trend (plus the day).
    expect(HOURLY_RETENTION_SECONDS).toBeGreaterThanOrEqual(25 * 3600);
    expect(DAILY_RETENTION_SECONDS).toBeGreaterThanOrEqual(8 * 86_400);
  });

  it('keeps without expiry only per-auction, per-wallet, per-domain and all-time keys', async () => {
    const lasting = (await analyticsKeyspace()).filter((k) => k.ttl === -1);
    expect([...new Set(lasting.map((k) => `${k.type} ${shape(k.key)}`))].sort()).toEqual([
      'hash auction:<address>',
      'hash collection:3-digit',
      'hash domain:<domain>',
      'hash market',
      'hash user:<address>',
      'list user:<address>:activity',
      'set buyers',
      'set sellers',
      'set user:<address>:auctions',
      'string applied-through',
      'zset top-domains',
    ]);
  });

  it('records what was applied as one stream id, and a replay from the start changes nothing', async () => {
    const k = analyticsKeys(keys);
    const [last] = await t.redis.xrevrange(keys.eventLog(), '+', '-', 'COUNT', 1);
    expect(await t.redis.get(k.appliedThrough())).toBe(last![0]);
    const market = await t.redis.hgetall(k.market());
    expect(market).toEqual({
      volume: String(BigInt(SALES) * SOL + BigInt((SALES * (SALES - 1)) / 2)),
      sales: String(SALES),
      settled: String(SALES),
    });

    await t.redis.xgroup('SETID', keys.eventLog(), ANALYTICS_GROUP, '0');
    const consumer = startAnalyticsConsumer({ redis: t.redis, keys, blockMs: 100 });
    try {
      await consumer.caughtUp();
    } finally {
      await consumer.stop();
    }
    expect(await t.redis.hgetall(k.market())).toEqual(market);
    expect(await t.redis.get(k.appliedThrough())).toBe(last![0]);
  });
});
