import fc from 'fast-check';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { auctionListItemView, type ListedAuction } from '../../src/auctions/auction-view.js';
import type { AuctionAccount } from '../../src/core/program/auction-account.js';
import { envelopeJson, RenderedPages } from '../../src/http/routes/auctions/rendered-pages.js';
import { AuctionListSchema } from '../../src/http/schemas/auctions.js';
import { effectiveMetadata } from '../../src/indexer/auction-document.js';
import { shortAuction } from './auctions/short-auction.js';
import { ALICE, addressOf, makeAuction, SOL, START } from './core/auction-fixture.js';

const listed = (account: AuctionAccount, seed: number, title?: string): ListedAuction => ({
  address: addressOf(seed),
  account,
  metadata: effectiveMetadata(title === undefined ? {} : { title, tags: ['x', 'ÿ'] }, account.domains),
  knownReserve: null,
});

/** What the route's zod serializer writes for the page at `now`. */
const serialized = (items: readonly ListedAuction[], now: bigint, total = items.length) =>
  JSON.stringify(
    AuctionListSchema.encode({
      auctions: items.map((item) => auctionListItemView({ ...item, now })),
      total,
      page: 1,
      pageSize: 20,
    }),
  );

const ITEMS = [
  listed(makeAuction(), 40),
  listed(makeAuction({ auctionType: 'dutch', dutchFloor: SOL / 2n }), 41, 'café — 名前 🚀 "q"\\'),
  listed(makeAuction({ auctionType: 'buy_now', buyNowPrice: 5n * SOL, state: 'settled', winner: ALICE }), 42),
];

describe('RenderedPages', () => {
  it("writes exactly what the route's zod serializer writes, and wraps it in the envelope", () => {
    const now = START + 10n;
    const json = new RenderedPages().put('k', now, { items: ITEMS, total: 41, page: 1, pageSize: 20 });
    expect(json.toString('utf8')).toBe(serialized(ITEMS, now, 41));
    const empty = new RenderedPages().put('e', now, { items: [], total: 0, page: 1, pageSize: 20 });
    expect(empty.toString()).toBe(serialized([], now, 0));
    const body = JSON.parse(envelopeJson(json).toString('utf8'));
    expect(Object.keys(body)).toEqual(['success', 'data', 'timestamp']);
    expect(body.timestamp).toEqual(expect.any(Number));
  });

  it('answers a kept page at any chain time as a fresh rendering would, the same bytes while nothing changes', () => {
    fc.assert(
      fc.property(
        fc.array(shortAuction, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: -40, max: 80 }), { minLength: 1, maxLength: 8 }),
        (accounts, offsets) => {
          const items = accounts.map((account, i) => listed(account, 60 + i));
          const pages = new RenderedPages();
          pages.put('k', START, { items, total: items.length, page: 1, pageSize: 20 });
          for (const offset of offsets) {
            const now = START + BigInt(offset);
            const json = pages.get('k', now);
            expect(json?.toString('utf8')).toBe(serialized(items, now));
            // Read again at the same second: the page kept, not rendered again.
            expect(pages.get('k', now)).toBe(json);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a page with no item that can change for good, and others only until one may change', () => {
    const pages = new RenderedPages();
    const settled = pages.put('settled', START, { items: [ITEMS[2]!], total: 1, page: 1, pageSize: 20 });
    expect(pages.get('settled', START + 10n ** 9n)).toBe(settled);
    const live = pages.put('live', START, { items: ITEMS, total: 3, page: 1, pageSize: 20 });
    expect(pages.get('live', START)).toBe(live);
    expect(pages.get('live', START + 1n)).not.toBe(live); // the Dutch price may have fallen
    expect(pages.get('other', START)).toBeUndefined();
  });

  it('keeps at most `capacity` pages, the least recently read out first', () => {
    const pages = new RenderedPages(10);
    const page = (i: number) => ({ items: [], total: i, page: 1, pageSize: 20 });
    for (let i = 0; i < 10; i++) pages.put(String(i), 1n, page(i));
    expect(pages.get('0', 1n)).toBeDefined(); // a hit: '1' is now the least recently used
    pages.put('10', 1n, page(10));
    expect(pages.get('1', 1n)).toBeUndefined();
    for (const kept of ['0', '10', '9']) expect(pages.get(kept, 1n)).toBeDefined();
  });

  it('fails like the serializer (a response serialization error) on an item the schema refuses', () => {
    const good = listed(makeAuction(), 43);
    const bad = { ...good, metadata: { ...good.metadata, title: 5 as never } };
    let error: unknown;
    try {
      new RenderedPages().put('bad', START, { items: [bad], total: 1, page: 1, pageSize: 20 });
    } catch (e) {
      error = e;
    }
    expect(isResponseSerializationError(error as Error)).toBe(true);
  });
});
