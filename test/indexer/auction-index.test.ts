import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '../../src/core/address.js';
import { dutchPrice } from '../../src/core/auction-rules/dutch-price.js';
import { AuctionIndex } from '../../src/indexer/auction-index.js';
import type { AuctionQuery } from '../../src/indexer/auction-index-query.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { ReserveStore } from '../../src/redis/reserve-store.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { ALICE, addressOf, BOB, END, makeAuction, SELLER, SOL, START } from '../unit/core/auction-fixture.js';

let t: TestRedis;
let indexes = 0;
/** Each test gets an empty index of its own under the file's prefix. */
const freshIndex = () => new AuctionIndex(t.redis, createRedisKeys(`${t.prefix}${++indexes}:`));

beforeAll(async () => {
  t = await createTestRedis('auction-index');
});
afterAll(() => t.cleanup());

const LIST = { sortBy: 'endTime', sortOrder: 'asc', page: 1, pageSize: 100 } as const;
const domain = (name: string, seed = 90) => [{ nameAccount: addressOf(seed), name }];

async function addresses(index: AuctionIndex, q: Partial<AuctionQuery>, now: bigint): Promise<string[]> {
  return (await index.query({ ...LIST, ...q }, now)).items.map((i) => i.address);
}

describe('AuctionIndex documents', () => {
  it('stores the account with its address and slot, and metadata put before or after it appears', async () => {
    const index = freshIndex();
    const [a, b] = [addressOf(40), addressOf(41)];
    await index.putMetadata(a, { title: 'Rare pair', category: 'premium', tags: ['short'] });
    expect(await index.get(a)).toBeNull();
    expect(await index.count()).toBe(0);

    const account = makeAuction({ domains: [...domain('one.sol', 91), ...domain('two.sol', 92)] });
    await index.upsertFromAccount(a, account, 5);
    await index.upsertFromAccount(b, makeAuction({ nonce: 8n, domains: domain('three.sol') }), 5);
    await index.putMetadata(a, { featured: true });

    expect(await index.get(a)).toEqual({
      address: a,
      account,
      slot: 5,
      metadata: { title: 'Rare pair', category: 'premium', tags: ['short'], featured: true },
    });
    expect((await index.get(b))?.metadata).toEqual({
      title: 'three.sol',
      category: 'general',
      tags: [],
      featured: false,
    });
    expect(await index.getMetadata(a)).toEqual({
      title: 'Rare pair',
      category: 'premium',
      tags: ['short'],
      featured: true,
    });
    expect(await index.getMetadata(b)).toBeNull();
    expect(await index.count()).toBe(2);
  });

  it('ignores an account read at an older slot than the one stored', async () => {
    const index = freshIndex();
    const a = addressOf(42);
    const withBid = makeAuction({ topBidder: ALICE, topBid: 3n * SOL, bidCount: 1 });
    expect(await index.upsertFromAccount(a, withBid, 10)).toBe(true);
    expect(await index.upsertFromAccount(a, makeAuction(), 9)).toBe(false);
    expect((await index.get(a))?.account.bidCount).toBe(1);
    expect(await index.upsertFromAccount(a, { ...withBid, endTs: END + 300n }, 10)).toBe(true);
    expect((await index.get(a))?.account.endTs).toBe(END + 300n);
  });

  it('keeps bid history once per bid, in chain order', async () => {
    const index = freshIndex();
    const a = addressOf(43);
    const bid = (sequence: number, bidder: Address, sol: bigint) => ({
      bidder,
      amount: sol * SOL,
      timestamp: 1_700_000_000_000 + sequence * 1000,
      transactionId: `sig${sequence}`,
      eventIndex: 0,
      sequence,
    });
    await index.appendBids(a, [bid(2, BOB, 3n), bid(1, ALICE, 2n)]);
    await index.appendBids(a, [bid(2, BOB, 3n), bid(3, ALICE, 4n)]);
    expect(await index.getBids(a)).toEqual([bid(1, ALICE, 2n), bid(2, BOB, 3n), bid(3, ALICE, 4n)]);
    expect(await index.getBids(addressOf(44))).toEqual([]);
  });

  it('bulk-loads many auctions in pipelined script calls', async () => {
    const index = freshIndex();
    const entries = Array.from({ length: 2_500 }, (_, i) => ({
      address: `auction${i}` as Address,
      account: makeAuction({
        nonce: BigInt(i),
        startTs: START + BigInt(i),
        endTs: END + BigInt(i),
        domains: domain(`name${i}.sol`),
      }),
      slot: 1,
    }));
    expect(await index.bulkUpsert(entries, START)).toBe(2_500);
    expect(await index.count()).toBe(2_500);
    const page = await index.query(
      { ...LIST, status: 'upcoming', sortOrder: 'desc', pageSize: 2 },
      START + 10n,
    );
    expect(page.total).toBe(2_489);
    expect(page.items.map((i) => i.address)).toEqual(['auction2499', 'auction2498']);
  });
});

describe('AuctionIndex status at chain time', () => {
  it('moves an auction from upcoming to active to ended as chain time passes start and end, both ways', async () => {
    const index = freshIndex();
    const a = addressOf(45);
    await index.upsertFromAccount(a, makeAuction(), 1, { chainNow: START - 100n });
    const statusAt = async (now: bigint) => {
      const page = await index.query(LIST, now);
      const counts = await Promise.all(
        (['upcoming', 'active', 'ended', 'cancelled'] as const).map(
          async (status) => [status, (await index.query({ ...LIST, status }, now)).total] as const,
        ),
      );
      return { status: page.items[0]?.status, counts: Object.fromEntries(counts.filter(([, n]) => n > 0)) };
    };
    expect(await statusAt(START - 1n)).toEqual({ status: 'upcoming', counts: { upcoming: 1 } });
    expect(await statusAt(START)).toEqual({ status: 'active', counts: { active: 1 } });
    expect(await statusAt(END - 1n)).toEqual({ status: 'active', counts: { active: 1 } });
    expect(await statusAt(END)).toEqual({ status: 'ended', counts: { ended: 1 } });
    // Another API instance may read a chain clock a little behind.
    expect(await statusAt(START - 1n)).toEqual({ status: 'upcoming', counts: { upcoming: 1 } });
    expect(await statusAt(END + 5n)).toEqual({ status: 'ended', counts: { ended: 1 } });
  });

  it('reports settled auctions as ended and cancelled ones as cancelled at any time', async () => {
    const index = freshIndex();
    await index.upsertFromAccount(
      addressOf(46),
      makeAuction({ state: 'settled', settledAt: START + 10n }),
      1,
    );
    await index.upsertFromAccount(addressOf(47), makeAuction({ nonce: 9n, state: 'cancelled' }), 1);
    for (const now of [START - 10n, START + 10n, END + 10n]) {
      expect(await addresses(index, { status: 'ended' }, now)).toEqual([addressOf(46)]);
      expect(await addresses(index, { status: 'cancelled' }, now)).toEqual([addressOf(47)]);
      expect(await addresses(index, { status: 'active' }, now)).toEqual([]);
    }
  });

  it('moves an auction when a new account state arrives (a bid extends its end, a settlement)', async () => {
    const index = freshIndex();
    const a = addressOf(48);
    const live = makeAuction({ endTs: START + 100n });
    await index.upsertFromAccount(a, live, 1, { chainNow: START });
    expect(await addresses(index, { status: 'active' }, START + 99n)).toEqual([a]);
    await index.upsertFromAccount(
      a,
      { ...live, endTs: START + 400n, bidCount: 1, topBidder: ALICE, topBid: SOL },
      2,
    );
    expect(await addresses(index, { status: 'active' }, START + 200n)).toEqual([a]);
    expect(await addresses(index, { status: 'ended' }, START + 400n)).toEqual([a]);
    await index.upsertFromAccount(a, { ...live, state: 'settled', endTs: START + 400n }, 3);
    expect(await addresses(index, { status: 'ended' }, START + 200n)).toEqual([a]);
  });
});

describe('AuctionIndex filters, sorting and search', () => {
  const dutch = makeAuction({
    auctionType: 'dutch',
    nonce: 1n,
    startingPrice: 100n * SOL,
    dutchFloor: 10n * SOL,
    startTs: START,
    endTs: START + 1_000n,
    domains: domain('falling.sol', 93),
  });
  const standard = makeAuction({ nonce: 2n, startingPrice: 50n * SOL, domains: domain('steady.sol', 94) });
  const buyNow = makeAuction({
    auctionType: 'buy_now',
    nonce: 3n,
    seller: BOB,
    startingPrice: 70n * SOL,
    buyNowPrice: 70n * SOL,
    domains: domain('instant.sol', 95),
  });
  const [D, S, N] = [addressOf(50), addressOf(51), addressOf(52)];

  async function seeded() {
    const index = freshIndex();
    await index.upsertFromAccount(D, dutch, 1, { chainNow: START });
    await index.upsertFromAccount(S, standard, 1);
    await index.upsertFromAccount(N, buyNow, 1);
    return index;
  }

  it('prices a Dutch auction at read time, and re-orders the price sort as its price falls', async () => {
    const index = await seeded();
    const byPrice = async (now: bigint, sortOrder: 'asc' | 'desc' = 'asc') =>
      (await index.query({ ...LIST, sortBy: 'currentPrice', sortOrder }, now)).items.map((i) => [
        i.address,
        i.currentPrice,
      ]);
    expect(await byPrice(START)).toEqual([
      [S, 50n * SOL],
      [N, 70n * SOL],
      [D, 100n * SOL],
    ]);
    const at600 = dutchPrice(dutch, START + 600n);
    expect(at600).toBe(46n * SOL);
    expect(await byPrice(START + 600n)).toEqual([
      [D, at600],
      [S, 50n * SOL],
      [N, 70n * SOL],
    ]);
    expect(await byPrice(START + 400n, 'desc')).toEqual([
      [N, 70n * SOL],
      [D, dutchPrice(dutch, START + 400n)],
      [S, 50n * SOL],
    ]);
    expect(await byPrice(END + 1n)).toEqual([
      [D, 10n * SOL],
      [S, 50n * SOL],
      [N, 70n * SOL],
    ]);
    expect(await byPrice(START)).toEqual([
      [S, 50n * SOL],
      [N, 70n * SOL],
      [D, 100n * SOL],
    ]);
  });

  it('filters by type and seller, alone and with a status', async () => {
    const index = await seeded();
    expect(await addresses(index, { type: 'dutch' }, START)).toEqual([D]);
    expect(await addresses(index, { seller: BOB }, START)).toEqual([N]);
    expect(await addresses(index, { seller: SELLER, sortBy: 'createdAt' }, START)).toHaveLength(2);
    expect(await addresses(index, { seller: SELLER, type: 'dutch', status: 'active' }, START + 1n)).toEqual([
      D,
    ]);
    expect(await addresses(index, { seller: SELLER, type: 'dutch', status: 'ended' }, START + 1n)).toEqual(
      [],
    );
    expect(await addresses(index, { seller: 'not an address' }, START)).toEqual([]);
    expect(await addresses(index, { seller: addressOf(99) }, START)).toEqual([]);
  });

  it('searches domain names, titles and sellers by case-insensitive substring', async () => {
    const index = await seeded();
    await index.putMetadata(N, { title: 'Fast Checkout Deal' });
    const search = (search: string, q: Partial<AuctionQuery> = {}) =>
      addresses(index, { ...q, search }, START);
    expect(await search('FALL')).toEqual([D]);
    expect(await search('ling.s')).toEqual([D]);
    expect(await search('checkout')).toEqual([N]);
    expect(await search('instant.sol')).toEqual([N]);
    expect(await search(BOB.slice(4, 15).toLowerCase())).toEqual([N]);
    expect(await search(SELLER.toUpperCase(), { sortBy: 'currentPrice' })).toEqual([S, D]);
    expect(await search('.sol', { sortBy: 'currentPrice', sortOrder: 'desc' })).toEqual([D, N, S]);
    expect(await search('t', { type: 'standard' })).toEqual([S]);
    expect(await search('  steady  ')).toEqual([S]);
    expect(await search('nowhere')).toEqual([]);
    await index.putMetadata(N, { title: 'Renamed' });
    expect(await search('checkout')).toEqual([]);
    expect(await search('renamed')).toEqual([N]);
    // The query travels as one '|'-separated argument, the search last: a '|' in it is text.
    await index.putMetadata(S, { title: 'Pipes|end|asc|0|20|x' });
    expect(await search('s|end|asc|0')).toEqual([S]);
    expect(await search('|x', { sortBy: 'currentPrice' })).toEqual([S]);
    expect(await search('end|desc')).toEqual([]);
  });

  it('pages sparse and dense search matches alike (built intersection and walk of the cell)', async () => {
    const index = freshIndex();
    // 250 auctions ending in turn; 2 sparse matches ("rare"), every other one a dense match ("even").
    await index.bulkUpsert(
      Array.from({ length: 250 }, (_, i) => ({
        address: addressOf(1_000 + i),
        account: makeAuction({
          nonce: BigInt(i),
          endTs: END + BigInt(i),
          domains: domain(`${[7, 240].includes(i) ? 'rare' : i % 2 ? 'odd' : 'even'}x${i}.sol`, 90),
        }),
        slot: 1,
      })),
      START,
    );
    const page = (search: string, sortOrder: 'asc' | 'desc', pageNumber: number, pageSize: number) =>
      index.query({ ...LIST, search, sortOrder, page: pageNumber, pageSize }, START);
    const at = (...i: number[]) => i.map((n) => addressOf(1_000 + n));
    // Sparse: a page of 100 over 250 auctions for 2 matches takes the built intersection.
    expect((await page('rare', 'asc', 1, 100)).items.map((i) => i.address)).toEqual(at(7, 240));
    expect((await page('rare', 'desc', 1, 100)).items.map((i) => i.address)).toEqual(at(240, 7));
    expect((await page('rare', 'asc', 1, 100)).total).toBe(2);
    // Dense: small pages are found by walking the cell in order.
    const even = await page('even', 'asc', 3, 4);
    expect(even.total).toBe(124); // 125 even numbers below 250, less the rare 240
    expect(even.items.map((i) => i.address)).toEqual(at(16, 18, 20, 22));
    expect((await page('even', 'desc', 1, 3)).items.map((i) => i.address)).toEqual(at(248, 246, 244));
    expect((await page('even', 'asc', 31, 4)).items.map((i) => i.address)).toEqual(at(242, 244, 246, 248));
    expect((await page('even', 'asc', 32, 4)).items).toEqual([]);
  });

  it('finds what a write adds or changes right after the same search was answered (no stale matches)', async () => {
    const index = freshIndex();
    const search = (text: string) => addresses(index, { search: text }, START);
    const [first, second, third] = [addressOf(80), addressOf(81), addressOf(82)];
    await index.upsertFromAccount(first, makeAuction({ nonce: 1n, domains: domain('vault.sol', 83) }), 1);
    expect(await search('vault')).toEqual([first]);
    // A new auction with a matching domain, from a new seller.
    const newSeller = addressOf(84);
    await index.upsertFromAccount(
      second,
      makeAuction({ nonce: 2n, seller: newSeller, domains: domain('goldvault.sol', 85) }),
      1,
    );
    expect(await search('vault')).toEqual([first, second]);
    expect(await search(newSeller.slice(3, 12))).toEqual([second]);
    // A bid (no text change) keeps the matches; a title change moves them.
    await index.upsertFromAccount(
      first,
      makeAuction({
        nonce: 1n,
        bidCount: 1,
        topBid: SOL,
        topBidder: ALICE,
        domains: domain('vault.sol', 83),
      }),
      2,
    );
    expect(await search('vault')).toEqual([first, second]);
    await index.upsertFromAccount(third, makeAuction({ nonce: 3n, domains: domain('plain.sol', 86) }), 1);
    expect(await search('vault')).toEqual([first, second]);
    await index.putMetadata(third, { title: 'The Vault' });
    expect(await search('vault')).toEqual([first, second, third]);
  });

  it('pages through results with a total', async () => {
    const index = freshIndex();
    for (let i = 0; i < 7; i++)
      await index.upsertFromAccount(
        addressOf(60 + i),
        makeAuction({ nonce: BigInt(i), endTs: END + BigInt(i) }),
        1,
      );
    const page = (page: number) => index.query({ ...LIST, page, pageSize: 3 }, START);
    expect((await page(1)).total).toBe(7);
    expect((await page(1)).items.map((i) => i.address)).toEqual([60, 61, 62].map(addressOf));
    expect((await page(3)).items.map((i) => i.address)).toEqual([addressOf(66)]);
    expect((await page(4)).items).toEqual([]);
    await expect(index.query({ ...LIST, pageSize: 101 }, START)).rejects.toThrow(RangeError);
    await expect(index.query({ ...LIST, page: 0 }, START)).rejects.toThrow(RangeError);
  });

  it("returns the known hidden reserves of the page's reserve auctions, also those stored after it was cached", async () => {
    const keys = createRedisKeys(`${t.prefix}${++indexes}:`);
    const index = new AuctionIndex(t.redis, keys);
    const reserves = new ReserveStore(t.redis, keys);
    const commitment = new Uint8Array(32).fill(7);
    const [plain, withReserve, unknownReserve] = [addressOf(70), addressOf(71), addressOf(72)];
    await index.upsertFromAccount(plain, makeAuction({ nonce: 1n }), 1);
    await reserves.put(plain, 9n * SOL); // not a reserve auction: never reported
    await index.upsertFromAccount(
      withReserve,
      makeAuction({ nonce: 2n, auctionType: 'reserve', reserveCommitment: commitment }),
      1,
    );
    await index.upsertFromAccount(
      unknownReserve,
      makeAuction({ nonce: 3n, auctionType: 'reserve', reserveCommitment: commitment }),
      1,
    );
    await reserves.put(withReserve, 5n * SOL);

    const first = await index.query(LIST, START);
    expect(first.items).toHaveLength(3);
    expect(first.reserves).toEqual(new Map([[withReserve, 5n * SOL]]));
    // The page is cached by the script under the cell's version and the reserves' version: a
    // reserve stored later (ReserveStore bumps the latter) is in the next answer.
    expect((await index.query(LIST, START)).contentKey).toBe(first.contentKey);
    await reserves.put(unknownReserve, 2n * SOL);
    const second = await index.query(LIST, START);
    expect(second.reserves).toEqual(
      new Map([
        [withReserve, 5n * SOL],
        [unknownReserve, 2n * SOL],
      ]),
    );
    expect(second.contentKey).not.toBe(first.contentKey);
    expect((await index.query({ ...LIST, type: 'standard' }, START)).reserves).toEqual(new Map());
  });
});
