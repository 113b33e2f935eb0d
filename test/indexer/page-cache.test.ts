/**
 * The page cache of query.lua: a page without search is kept under its cell's version, so it
 * outlives writes to other cells and the passing seconds, and never outlives a change of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionAccount } from '../../src/core/program/auction-account.js';
import { AuctionIndex } from '../../src/indexer/auction-index.js';
import { createRedisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { ALICE, addressOf, BOB, END, makeAuction, SELLER, SOL, START } from '../unit/core/auction-fixture.js';

let t: TestRedis;
let indexes = 0;

beforeAll(async () => {
  t = await createTestRedis('page-cache');
});
afterAll(() => t.cleanup());

const [S1, S2, D, B1] = [addressOf(60), addressOf(61), addressOf(62), addressOf(63)];
const accounts: Record<string, AuctionAccount> = {
  [S1]: makeAuction({ nonce: 1n, startingPrice: 50n * SOL }),
  [S2]: makeAuction({
    nonce: 2n,
    endTs: START + 100n,
    bidCount: 1,
    topBidder: ALICE,
    topBid: 3n * SOL,
  }),
  // 100 SOL falling to 10 over 1 000 s: crosses S1's 50 SOL between START + 555 and + 556.
  [D]: makeAuction({
    nonce: 3n,
    auctionType: 'dutch',
    startingPrice: 100n * SOL,
    dutchFloor: 10n * SOL,
    endTs: START + 1_000n,
  }),
  [B1]: makeAuction({ nonce: 4n, seller: BOB }),
};
const BY_BIDS = { seller: SELLER, sortBy: 'totalBids', sortOrder: 'desc', page: 1, pageSize: 10 } as const;

/** An index holding S1, S2 and D (SELLER) and B1 (BOB), and the means to mark its cached pages. */
async function seeded() {
  const keys = createRedisKeys(`${t.prefix}${++indexes}:`);
  const index = new AuctionIndex(t.redis, keys);
  for (const address of [S1, S2, D, B1])
    await index.upsertFromAccount(address, accounts[address]!, 1, { chainNow: START });
  return { index, keys };
}

/**
 * Rewrites the total of every cached page without search to 999 (TTL kept): a query answering 999
 * was served the cached page; any other total was computed afresh.
 */
async function markCachedPages(keys: RedisKeys): Promise<number> {
  let [cursor, marked] = ['0', 0];
  do {
    const [next, names] = await t.redis.scan(cursor, 'MATCH', keys.auctionIndex('pg', '*'), 'COUNT', 1_000);
    for (const name of names) {
      const page = (await t.redis.get(name)) ?? '';
      // A seller's price-sorted page starts with the span it holds for: "<from> <until>\n".
      await t.redis.set(name, page.replace(/^(\d+ \d+\n)?\d+/, '$1999'), 'KEEPTTL');
    }
    marked += names.length;
    cursor = next;
  } while (cursor !== '0');
  return marked;
}

const addresses = (page: { items: readonly { address: string }[] }) => page.items.map((i) => i.address);

describe('the page cache of GET /auctions', () => {
  it("reuses a seller's page after writes to other sellers' auctions and to other cells, and as seconds pass", async () => {
    const { index, keys } = await seeded();
    const endedOnly = { ...BY_BIDS, status: 'ended' } as const;
    expect(addresses(await index.query(BY_BIDS, START + 10n))).toEqual([S2, D, S1]);
    expect((await index.query(endedOnly, START + 10n)).total).toBe(0);
    expect(await markCachedPages(keys)).toBe(2);

    // Another seller's auction: a bid, then its title.
    await index.upsertFromAccount(B1, { ...accounts[B1]!, bidCount: 1, topBidder: ALICE, topBid: SOL }, 2);
    await index.putMetadata(B1, { title: 'Elsewhere' });
    expect((await index.query(BY_BIDS, START + 10n)).total).toBe(999);
    // The seller's own active auction: its ended cell is not touched.
    await index.upsertFromAccount(S1, { ...accounts[S1]!, bidCount: 0, endTs: END + 60n }, 2);
    expect((await index.query(endedOnly, START + 10n)).total).toBe(999);

    // Later seconds, no status change of the seller's auctions (S2 ends at START + 100).
    expect((await index.query(BY_BIDS, START + 10n)).total).toBe(3);
    await markCachedPages(keys);
    for (const now of [START + 11n, START + 99n]) {
      expect((await index.query(BY_BIDS, now)).total).toBe(999);
      expect((await index.query(endedOnly, now)).total).toBe(999);
    }
  });

  it("recomputes a seller's page after a bid on one of its auctions changes the order", async () => {
    const { index, keys } = await seeded();
    expect(addresses(await index.query(BY_BIDS, START + 10n))).toEqual([S2, D, S1]);
    await markCachedPages(keys);
    await index.upsertFromAccount(
      S1,
      { ...accounts[S1]!, bidCount: 2, topBidder: BOB, topBid: 60n * SOL },
      2,
    );
    const page = await index.query(BY_BIDS, START + 10n);
    expect(page.total).toBe(3);
    expect(addresses(page)).toEqual([S1, S2, D]);
  });

  it("recomputes a seller's page after a title change of one of its auctions (a new item version)", async () => {
    const { index, keys } = await seeded();
    const title = async () => (await index.query(BY_BIDS, START + 10n)).items.find((i) => i.address === S1);
    expect((await title())?.metadata.title).toBe('alice.sol');
    await markCachedPages(keys);
    await index.putMetadata(S1, { title: 'Renamed' });
    expect((await title())?.metadata.title).toBe('Renamed');
    expect((await index.query(BY_BIDS, START + 10n)).total).toBe(3);
  });

  it('recomputes a status-filtered page when chain time ends one of its auctions', async () => {
    const { index, keys } = await seeded();
    const active = { ...BY_BIDS, status: 'active' } as const;
    expect(addresses(await index.query(active, START + 99n))).toEqual([S2, D, S1]);
    await markCachedPages(keys);
    const page = await index.query(active, START + 100n);
    expect(page.total).toBe(2);
    expect(addresses(page)).toEqual([D, S1]);
  });

  it("keeps a seller's price-sorted page over the seconds no live Dutch price can cross a neighbour", async () => {
    const { index, keys } = await seeded();
    const byPrice = { ...BY_BIDS, status: 'active', sortBy: 'currentPrice', sortOrder: 'asc' } as const;
    // D falls from ~99 SOL by 0.09 SOL a second: far above S1's 50 SOL for the next minute.
    expect(addresses(await index.query(byPrice, START + 10n))).toEqual([S2, S1, D]);
    await markCachedPages(keys);
    expect((await index.query(byPrice, START + 11n)).total).toBe(999);
    expect((await index.query(byPrice, START + 69n)).total).toBe(999);
    // Past the minute it was computed for: computed again (and again kept for its next minute).
    const later = await index.query(byPrice, START + 70n);
    expect(later.total).toBe(3);
    expect(later.items.map((i) => i.address)).toEqual([S2, S1, D]);
  });

  it('recomputes a price-sorted page over a live Dutch auction every second, and reuses it within one', async () => {
    const { index, keys } = await seeded();
    const byPrice = { ...BY_BIDS, status: 'active', sortBy: 'currentPrice', sortOrder: 'asc' } as const;
    expect(addresses(await index.query(byPrice, START + 555n))).toEqual([S1, D]);
    await markCachedPages(keys);
    expect((await index.query(byPrice, START + 555n)).total).toBe(999);
    const page = await index.query(byPrice, START + 556n);
    expect(page.total).toBe(2);
    expect(addresses(page)).toEqual([D, S1]);
  });
});
