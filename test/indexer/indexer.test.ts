import { once } from 'node:events';
import type { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAuction, fetchTransactionEvents } from '../../src/chain/auction-client.js';
import type { Address } from '../../src/core/address.js';
import { AuctionIndex } from '../../src/indexer/auction-index.js';
import { EventLog, eventId } from '../../src/indexer/event-log.js';
import { isIndexed, waitUntilIndexed } from '../../src/indexer/indexed-signatures.js';
import { type Indexer, startIndexer } from '../../src/indexer/indexer.js';
import { createRedisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { bid, cancel, createAuction, settle } from '../helpers/auction.js';
import { SOL, startTestLocalnet, type TestLocalnet } from '../helpers/localnet.js';
import { createTestRedis, deleteKeysWithPrefix, type TestRedis } from '../helpers/redis.js';

let t: TestLocalnet;
let r: TestRedis;
const running = new Set<Indexer>();

beforeAll(async () => {
  [t, r] = await Promise.all([startTestLocalnet(), createTestRedis('indexer')]);
});
afterAll(async () => {
  await Promise.all([...running].map((i) => i.stop()));
  await r.cleanup();
  await t.close();
});

function indexer(keys: RedisKeys): Indexer {
  const i = startIndexer({ connection: t.connection, redis: r.redis, keys, pollMs: 200, leaseTtlMs: 2_000 });
  running.add(i);
  return i;
}

async function stop(i: Indexer): Promise<void> {
  await i.stop();
  running.delete(i);
}

/** The event ids the program emitted in these transactions, read back from the chain. */
async function chainEventIds(signatures: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const signature of signatures) {
    const tx = await fetchTransactionEvents(t.connection, signature);
    for (const { index } of tx?.events ?? []) ids.push(eventId(signature, index));
  }
  return ids;
}

describe('Indexer over a localnet', () => {
  let k: RedisKeys;
  let english: PublicKey;
  let dutch: PublicKey;
  let cancelled: PublicKey;
  let alice: Keypair;
  let bob: Keypair;
  const signatures: string[] = [];
  const bidSignatures: string[] = [];

  beforeAll(async () => {
    k = createRedisKeys(`${r.prefix}main:`);
    [alice, bob] = await Promise.all([t.fundedKeypair(), t.fundedKeypair()]);
  });

  it('indexes auctions, their bids and every event as transactions land', async () => {
    const first = indexer(k);
    const created = await createAuction(t, {
      durationSeconds: 900,
      snipeEnabled: true,
      snipeExtensionSeconds: 120,
    });
    english = created.address;
    const falling = await createAuction(t, {
      auctionType: 'dutch',
      startingPrice: 10n * SOL,
      dutchFloor: SOL,
      durationSeconds: 1_000,
    });
    dutch = falling.address;
    const withdrawn = await createAuction(t, { domainCount: 2 });
    cancelled = withdrawn.address;
    signatures.push(created.signature, falling.signature, withdrawn.signature);

    bidSignatures.push(await bid(t, alice, english, SOL));
    bidSignatures.push(await bid(t, bob, english, 2n * SOL));
    signatures.push(...bidSignatures);
    signatures.push(await bid(t, alice, dutch, 10n * SOL));
    signatures.push(await cancel(t, withdrawn.seller, cancelled));
    await first.caughtUp(signatures[signatures.length - 1]!);

    for (const address of [english, dutch, cancelled]) {
      const onChain = await fetchAuction(t.connection, address);
      const { address: _, ...account } = onChain!;
      expect((await first.index.get(address.toBase58() as Address))?.account).toEqual(account);
    }
    const now = await t.chainTime();
    const bids = await first.index.getBids(english.toBase58() as Address);
    expect(bids.map(({ bidder, amount, transactionId }) => ({ bidder, amount, transactionId }))).toEqual([
      { bidder: alice.publicKey.toBase58(), amount: SOL, transactionId: bidSignatures[0] },
      { bidder: bob.publicKey.toBase58(), amount: 2n * SOL, transactionId: bidSignatures[1] },
    ]);
    for (const b of bids) expect(BigInt(b.timestamp)).toBeLessThanOrEqual(now * 1000n);

    const statuses = async (status: 'active' | 'ended' | 'cancelled') =>
      (
        await first.index.query({ status, sortBy: 'endTime', sortOrder: 'asc', page: 1, pageSize: 10 }, now)
      ).items.map((i) => i.address);
    expect(await statuses('active')).toEqual([english.toBase58()]);
    expect(await statuses('ended')).toEqual([dutch.toBase58()]);
    expect(await statuses('cancelled')).toEqual([cancelled.toBase58()]);

    const logged = await first.eventLog.read();
    expect(logged.map((e) => e.id).sort()).toEqual((await chainEventIds(signatures)).sort());
    expect(logged.map((e) => e.name)).toEqual([
      'AuctionCreated',
      'AuctionCreated',
      'AuctionCreated',
      'BidPlaced',
      'BidPlaced',
      'BidPlaced',
      'AuctionSettled',
      'AuctionCancelled',
    ]);
    expect(logged[4]?.data).toMatchObject({ bidder: bob.publicKey.toBase58(), amount: String(2n * SOL) });
    await stop(first);
  });

  it('resumes from its cursor after a restart, without duplicating bids or events', async () => {
    const before = await r.redis.hgetall(k.indexerState());
    expect(before['signature']).toBe(signatures[signatures.length - 1]);

    const third = await bid(t, alice, english, 3n * SOL);
    await t.warp(1_000);
    const settled = await settle(t, english);
    signatures.push(third, settled);

    const restarted = indexer(k);
    const seen: string[] = [];
    restarted.on('events', (events) => seen.push(...events.map((e) => e.event.name)));
    await restarted.caughtUp(settled);
    expect(seen).toEqual(['BidPlaced', 'AuctionSettled']);
    expect(
      (await restarted.index.getBids(english.toBase58() as Address)).map((b) => b.transactionId),
    ).toEqual([...bidSignatures, third]);
    const ids = (await restarted.eventLog.read()).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await chainEventIds(signatures)).sort());
    expect((await restarted.index.get(english.toBase58() as Address))?.account.state).toBe('settled');

    // A wait for a transaction that never comes ends with its signal, or when the indexer stops.
    const never = '1'.repeat(64);
    const aborting = new AbortController();
    const aborted = restarted.caughtUp(never, aborting.signal);
    const stopped = restarted.caughtUp(never);
    aborting.abort(new Error('gave up'));
    await expect(aborted).rejects.toThrow('gave up');
    const rejection = expect(stopped).rejects.toThrow('the indexer stopped');
    await stop(restarted);
    await rejection;
  });

  it('writes nothing twice when history is processed again (cursor lost)', async () => {
    const log = new EventLog(r.redis, k);
    const before = await log.read();
    const bidsBefore = await new AuctionIndex(r.redis, k).getBids(english.toBase58() as Address);
    await r.redis.del(k.indexerState(), k.indexerRecent());

    const again = indexer(k);
    const fresh: unknown[] = [];
    again.on('events', (events) => fresh.push(...events));
    await again.caughtUp(signatures[signatures.length - 1]!);
    expect(await r.redis.hget(k.indexerState(), 'signature')).toBe(signatures[signatures.length - 1]);
    expect(fresh).toEqual([]);
    expect(await log.read()).toEqual(before);
    expect(await again.index.getBids(english.toBase58() as Address)).toEqual(bidsBefore);
    await stop(again);
  });

  it('rebuilds an emptied prefix from chain history, with the same event ids', async () => {
    const onChain = (await fetchAuction(t.connection, english))!;
    const eventsBefore = (await new EventLog(r.redis, k).read()).map((e) => e.id);
    await deleteKeysWithPrefix(r.redis, k.prefix);

    const rebuilt = indexer(k);
    await rebuilt.caughtUp(signatures[signatures.length - 1]!);
    expect(await rebuilt.index.count()).toBe(3);
    const { address: _, ...account } = onChain;
    expect((await rebuilt.index.get(english.toBase58() as Address))?.account).toEqual(account);
    expect(await rebuilt.index.getBids(english.toBase58() as Address)).toHaveLength(3);
    expect((await rebuilt.eventLog.read()).map((e) => e.id)).toEqual(eventsBefore);
    await stop(rebuilt);
  });
});

describe('Two indexers on one Redis', () => {
  it('runs one at a time; the standby answers caughtUp and takes over when the leader stops', async () => {
    const k = createRedisKeys(`${r.prefix}pair:`);
    const a = indexer(k);
    const b = indexer(k);
    const [firstLeader] = await Promise.race([
      once(a, 'leadership').then(() => [a, b] as const),
      once(b, 'leadership').then(() => [b, a] as const),
    ]);
    const standby = firstLeader === a ? b : a;
    expect([a.leading, b.leading].filter(Boolean)).toHaveLength(1);

    const created = await createAuction(t);
    await standby.caughtUp(created.signature);
    expect(standby.leading).toBe(false);
    expect(await standby.index.get(created.address.toBase58() as Address)).not.toBeNull();

    const takeover = once(standby, 'leadership');
    await stop(firstLeader);
    expect(await takeover).toEqual([true]);
    const signature = await bid(t, await t.fundedKeypair(), created.address, SOL);
    // A process without an indexer (the API) waits on the same progress in Redis.
    await waitUntilIndexed(r.redis, k, signature, { pollMs: 20 });
    expect(await isIndexed(r.redis, k, signature)).toBe(true);
    await standby.caughtUp(signature);
    expect(await standby.index.getBids(created.address.toBase58() as Address)).toHaveLength(1);
    const ids = (await standby.eventLog.read()).map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining(await chainEventIds([created.signature, signature])));
    expect(new Set(ids).size).toBe(ids.length);
    await stop(standby);
  });
});
