import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUCTION_TYPES, type AuctionAccount } from '../../src/core/program/auction-account.js';
import { effectiveMetadata } from '../../src/indexer/auction-document.js';
import { AuctionIndex } from '../../src/indexer/auction-index.js';
import { AUCTION_SORT_KEYS } from '../../src/indexer/auction-index-query.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { ALICE, addressOf, BOB, makeAuction, SELLER, SOL, START } from '../unit/core/auction-fixture.js';
import { expectedResult, type ModelAuction, sortValue } from './auction-index-oracle.js';

let t: TestRedis;
let indexes = 0;
/** Each property run gets an empty index of its own under the file's prefix. */
const freshIndex = () => new AuctionIndex(t.redis, createRedisKeys(`${t.prefix}${++indexes}:`));
const domain = (name: string, seed = 90) => [{ nameAccount: addressOf(seed), name }];

beforeAll(async () => {
  t = await createTestRedis('auction-index-model');
});
afterAll(() => t.cleanup());

describe('AuctionIndex price sort over live Dutch auctions', () => {
  it('sorts many live Dutch auctions with crossing price curves exactly, soon or long after they were scored', async () => {
    // More live Dutch auctions than a query re-scores, all still live at `now`, falling at very
    // different speeds; read within the scores' validity window, or long after it.
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 100, max: 5_000 })),
        fc.array(
          fc.record({
            price: fc.integer({ min: 1, max: 1_000 }),
            extra: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 5_000 })),
          }),
          {
            minLength: 40,
            maxLength: 80,
          },
        ),
        fc.constantFrom('asc', 'desc' as const),
        async (elapsed, curves, sortOrder) => {
          const index = freshIndex();
          const model: ModelAuction[] = curves.map(({ price, extra }, i) => ({
            address: addressOf(120 + i),
            account: makeAuction({
              auctionType: 'dutch',
              nonce: BigInt(i),
              startingPrice: BigInt(price) * SOL,
              dutchFloor: BigInt(price) * (SOL / 100n),
              endTs: START + BigInt(elapsed + extra),
            }),
            metadata: null,
          }));
          await index.bulkUpsert(
            model.map((m) => ({ ...m, slot: 1 })),
            START,
          );
          const now = START + BigInt(elapsed);
          const q = { sortBy: 'currentPrice', sortOrder } as const;
          const page = await index.query({ ...q, page: 1, pageSize: 10 }, now);
          expect(page.items.map((i) => i.currentPrice)).toEqual(
            expectedResult(model, q, now).values.slice(0, 10),
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("AuctionIndex: a seller's price-sorted page kept over the seconds it holds", () => {
  it('matches the model at every second, the same query read again and again as prices cross', async () => {
    // One seller's live Dutch auctions falling at very different speeds among fixed prices: the
    // page is kept for as long as no entry can cross its neighbour, then computed again.
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            price: fc.integer({ min: 1, max: 60 }),
            dutch: fc.boolean(),
            floorPercent: fc.integer({ min: 0, max: 90 }),
            length: fc.integer({ min: 20, max: 400 }),
          }),
          { minLength: 2, maxLength: 30 },
        ),
        fc.constantFrom('asc', 'desc' as const),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 5, maxLength: 25 }),
        async (drafts, sortOrder, pageSize, steps) => {
          const index = freshIndex();
          const model: ModelAuction[] = drafts.map(({ price, dutch, floorPercent, length }, i) => {
            const startingPrice = BigInt(price) * (SOL / 10n);
            return {
              address: addressOf(60 + i),
              account: makeAuction({
                auctionType: dutch ? 'dutch' : 'standard',
                nonce: BigInt(i),
                startingPrice,
                dutchFloor: dutch ? (startingPrice * BigInt(floorPercent)) / 100n : 0n,
                endTs: START + BigInt(length),
              }),
              metadata: null,
            };
          });
          await index.bulkUpsert(
            model.map((m) => ({ ...m, slot: 1 })),
            START,
          );
          const q = { seller: SELLER, sortBy: 'currentPrice', sortOrder } as const;
          let now = START;
          for (const step of steps) {
            now += BigInt(step);
            const expected = expectedResult(model, q, now).values;
            for (let page = 1; page <= 2; page++) {
              const result = await index.query({ ...q, page, pageSize }, now);
              expect(result.items.map((i) => i.currentPrice)).toEqual(
                expected.slice((page - 1) * pageSize, page * pageSize),
              );
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('AuctionIndex against a model (fast-check)', () => {
  const SELLERS = [SELLER, BOB, addressOf(17)];
  const T0 = START;
  const auctionArbitrary = fc.record({
    auctionType: fc.constantFrom(...AUCTION_TYPES),
    state: fc.constantFrom('active', 'active', 'active', 'settled', 'cancelled'),
    seller: fc.constantFrom(...SELLERS),
    start: fc.integer({ min: -2_000, max: 2_000 }),
    duration: fc.integer({ min: 1, max: 3_000 }),
    price: fc.integer({ min: 1, max: 50 }),
    floorPercent: fc.integer({ min: 0, max: 100 }),
    bids: fc.integer({ min: 0, max: 3 }),
    created: fc.integer({ min: -5, max: 5 }),
    name: fc.constantFrom('alpha', 'moon', 'delta', 'Sol', 'ph'),
    title: fc.option(fc.constantFrom('Rare GEM', 'moon shot', 'x'), { nil: undefined }),
    later: fc.option(fc.record({ extend: fc.integer({ min: 0, max: 600 }), settle: fc.boolean() }), {
      nil: null,
    }),
  });
  type Draft = typeof auctionArbitrary extends fc.Arbitrary<infer T> ? T : never;

  function accountOf(r: Draft, i: number): AuctionAccount {
    const startingPrice = BigInt(r.price) * (SOL / 10n);
    const sold = r.state === 'settled' && r.bids > 0;
    return makeAuction({
      auctionType: r.auctionType,
      state: r.state,
      seller: r.seller,
      nonce: BigInt(i),
      startingPrice,
      dutchFloor: r.auctionType === 'dutch' ? (startingPrice * BigInt(r.floorPercent)) / 100n : 0n,
      buyNowPrice: r.auctionType === 'buy_now' ? startingPrice : 0n,
      startTs: T0 + BigInt(r.start),
      endTs: T0 + BigInt(r.start + r.duration),
      createdAt: T0 + BigInt(r.start + r.created),
      topBidder: r.bids > 0 ? ALICE : null,
      topBid: r.bids > 0 ? startingPrice + BigInt(r.bids) * SOL : 0n,
      bidCount: r.bids,
      winner: sold ? ALICE : null,
      settledAt: r.state === 'active' ? 0n : T0 + BigInt(r.start + 1),
      domains: domain(`${r.name}${i}.sol`, 100 + (i % 100)),
    });
  }

  const queryArbitrary = fc.record({
    now: fc.integer({ min: -2_500, max: 5_500 }).map((s) => T0 + BigInt(s)),
    status: fc.option(fc.constantFrom('upcoming', 'active', 'ended', 'cancelled' as const), {
      nil: undefined,
    }),
    type: fc.option(fc.constantFrom(...AUCTION_TYPES), { nil: undefined }),
    seller: fc.option(fc.constantFrom(SELLERS[0]!, SELLERS[1]!), { nil: undefined }),
    search: fc.option(
      fc.constantFrom('MOON', 'ph', 'a', 'gem', 'pha1', BOB.slice(3, 9).toUpperCase(), 'zzz'),
      {
        nil: undefined,
      },
    ),
    sortBy: fc.constantFrom(...AUCTION_SORT_KEYS),
    sortOrder: fc.constantFrom('asc', 'desc' as const),
    pageSize: fc.integer({ min: 1, max: 8 }),
    refresh: fc.boolean(),
  });

  type ModelQuery = typeof queryArbitrary extends fc.Arbitrary<infer T> ? T : never;

  /** Every page of `q` at `now`: the auctions the model selects, in order, in their current state. */
  async function expectModelPages(
    index: AuctionIndex,
    model: readonly ModelAuction[],
    { pageSize, ...q }: Omit<ModelQuery, 'now' | 'refresh'>,
    now: bigint,
  ): Promise<void> {
    const expected = expectedResult(model, q, now);
    const byAddress = new Map(model.map((m) => [m.address, m]));
    const seen: string[] = [];
    const values: bigint[] = [];
    for (let page = 1; page <= Math.ceil(expected.values.length / pageSize) + 1; page++) {
      const result = await index.query({ ...q, page, pageSize }, now);
      expect(result.total).toBe(expected.values.length);
      for (const item of result.items) {
        seen.push(item.address);
        values.push(sortValue(item.account, q.sortBy, now));
        // The documents at their current versions: a page must not carry an older one.
        const m = byAddress.get(item.address);
        expect(item.account).toEqual(m?.account);
        expect(item.metadata.title).toBe(m && effectiveMetadata(m.metadata, m.account.domains).title);
      }
    }
    expect(new Set(seen)).toEqual(expected.addresses);
    expect(seen).toHaveLength(expected.addresses.size);
    expect(values).toEqual(expected.values);
  }

  it('returns exactly the matching auctions, in order, on every page, at any chain time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(auctionArbitrary, { minLength: 1, maxLength: 25 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 8 }),
        async (drafts, queries) => {
          const index = freshIndex();
          const model: ModelAuction[] = [];
          for (const [i, draft] of drafts.entries()) {
            const address = addressOf(150 + i);
            let account = accountOf(draft, i);
            await index.upsertFromAccount(address, account, 1, { chainNow: T0 });
            if (draft.later) {
              account = {
                ...account,
                endTs: account.endTs + BigInt(draft.later.extend),
                state: draft.later.settle ? 'settled' : account.state,
              };
              await index.upsertFromAccount(address, account, 2);
            }
            if (draft.title) await index.putMetadata(address, { title: draft.title });
            model.push({ address, account, metadata: draft.title ? { title: draft.title } : null });
          }
          for (const { now, refresh, ...q } of queries) {
            if (refresh) await index.refreshDynamicPrices(now);
            await expectModelPages(index, model, q, now);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  // A write of one auction: a new account state (bids, a later end, a settlement or cancellation)
  // or a new title; `target` picks the auction (modulo their number).
  const writeArbitrary = fc.oneof(
    fc.record({
      target: fc.nat(),
      bids: fc.integer({ min: 0, max: 3 }),
      extend: fc.integer({ min: 0, max: 900 }),
      state: fc.constantFrom('active', 'active', 'settled', 'cancelled' as const),
    }),
    fc.record({ target: fc.nat(), title: fc.constantFrom('Rare GEM', 'moon shot', 'Sol deal') }),
  );

  // The price sort where live Dutch auctions are ranked at read time: pages that depend on the second.
  const livePriceQueryArbitrary = queryArbitrary.map((q) => ({
    ...q,
    status: q.status === 'active' ? q.status : undefined,
    type: q.type === 'dutch' ? q.type : undefined,
    search: undefined,
    sortBy: 'currentPrice' as const,
  }));

  it('never serves a page a write or the passing time made stale: the same queries before and after each write', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(auctionArbitrary, { minLength: 1, maxLength: 15 }),
        fc.array(fc.oneof(queryArbitrary, livePriceQueryArbitrary), { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.record({
            write: writeArbitrary,
            // Chain time before the write: the same, seconds or minutes on (Dutch prices cross), or
            // (either way) around the start or end of an auction, where statuses change.
            time: fc.oneof(
              fc.record({ by: fc.integer({ min: 0, max: 3 }) }),
              fc.record({ by: fc.integer({ min: 10, max: 300 }) }),
              fc.record({
                at: fc.nat(),
                edge: fc.constantFrom('startTs', 'endTs' as const),
                by: fc.integer({ min: -1, max: 1 }),
              }),
            ),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (drafts, queries, writes) => {
          const index = freshIndex();
          const model: ModelAuction[] = [];
          const current: Draft[] = [];
          for (const [i, draft] of drafts.entries()) {
            const address = addressOf(150 + i);
            const account = accountOf(draft, i);
            await index.upsertFromAccount(address, account, 1, { chainNow: T0 });
            model.push({ address, account, metadata: null });
            current.push(draft);
          }
          let now = queries[0]!.now;
          for (const [n, { write, time }] of writes.entries()) {
            if ('at' in time) now = model[time.at % model.length]!.account[time.edge];
            now += BigInt(time.by);
            for (const q of queries) await expectModelPages(index, model, q, now);
            const i = write.target % model.length;
            const m = model[i]!;
            if ('title' in write) {
              await index.putMetadata(m.address, { title: write.title });
              model[i] = { ...m, metadata: { title: write.title } };
            } else {
              const before = current[i]!;
              const draft: Draft = {
                ...before,
                bids: before.bids + write.bids,
                duration: before.duration + write.extend,
                state: before.state === 'active' ? write.state : before.state,
              };
              const account = accountOf(draft, i);
              await index.upsertFromAccount(m.address, account, 2 + n);
              current[i] = draft;
              model[i] = { ...m, account };
            }
            for (const q of queries) await expectModelPages(index, model, q, now);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
