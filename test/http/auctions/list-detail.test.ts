/**
 * GET /auctions and GET /auctions/:id over a running indexer: filters, sorts, search, pagination and
 * the clamp, statuses and Dutch prices at chain time, and the detail's bids and seller-only reserve.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  expectOk,
  signAndSend,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../../helpers/auction-api.js';
import { expectError } from '../fixtures.js';

interface Item {
  id: string;
  seller: string;
  domains: string[];
  type: string;
  status: string;
  currentPrice: number;
  totalBids: number;
  endTime: number;
  createdAt: number;
  title: string;
  category: string;
  tags: string[];
  topBidder: string | null;
  settled: boolean;
}
interface Page {
  auctions: Item[];
  total: number;
  page: number;
  pageSize: number;
}
interface Detail extends Item {
  reservePrice: number | null;
  reserveMet: boolean | null;
  bids: { bidder: string; amount: number; timestamp: number; transactionId: string }[];
  nextMinimumBid: number | null;
  snipeWindowSeconds: number;
  serverTime: number;
}

describe('GET /auctions and GET /auctions/:id', () => {
  let env: AuctionApiEnv;
  let s1: Wallet;
  let s2: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  const ids: Record<string, string> = {};
  const bidSignatures: string[] = [];
  let dutchDomain: string;
  let clock = Date.now();

  const list = async (query = '') => {
    clock += 60_000;
    return call<Page>(env.baseUrl, 'GET', `/auctions${query}`);
  };
  const idsOf = (page: Page) => page.auctions.map((a) => a.id);
  const indexed = (signature: string) => env.api.indexer!.caughtUp(signature);

  beforeAll(async () => {
    env = await startAuctionApi('http-auction-list', { nowMs: () => clock, indexer: true });
    s1 = await walletWithKey(env);
    [s2, alice, bob] = await Promise.all([
      walletWithKey(env, { using: s1.key }),
      walletWithKey(env, { using: s1.key }),
      walletWithKey(env, { using: s1.key }),
    ]);
    const landed = async (name: string, seller: Wallet, body: Record<string, unknown>) => {
      const created = await createViaApi(env, seller, body);
      ids[name] = created.auctionId;
      await indexed(created.signature);
      return created;
    };
    await landed('alpha', s1, {
      title: 'Alpha collection',
      category: 'art',
      tags: ['rare'],
      durationHours: 1,
    });
    dutchDomain = (
      await landed('dutch', s1, { type: 'dutch', startingPrice: 10, dutchEndPrice: 1, durationHours: 2 })
    ).domainNames[0]!;
    await landed('reserve', s2, { type: 'reserve', startingPrice: 2, reservePrice: 5, durationHours: 0.5 });
    await landed('sold', s2, { type: 'buy_now', startingPrice: 3, buyNowPrice: 3 });
    const chainNow = (await env.t.localnet.getTime()).unixTimestamp;
    await landed('later', s1, { startTime: (chainNow + 3_600) * 1000 });
    await landed('cancelled', s2, {});

    for (const [bidder, amount] of [
      [alice, 1.5],
      [bob, 2],
    ] as const) {
      bidSignatures.push(await bidViaApi(env, bidder, ids['alpha']!, amount));
    }
    await indexed(await bidViaApi(env, alice, ids['sold']!, 3));
    const cancel = expectOk(
      await call<{ transaction: string }>(env.baseUrl, 'POST', `/auctions/${ids['cancelled']}/cancel`, {
        key: s2.key,
      }),
    );
    await indexed(await signAndSend(env.connection, cancel.transaction, s2.keypair));
    await indexed(bidSignatures[1]!);
  }, 60_000);
  afterAll(() => env?.close());

  it('lists everything by end time by default with the SPEC fields', async () => {
    const page = expectOk(await list());
    expect(page).toMatchObject({ total: 6, page: 1, pageSize: 20 });
    const ends = page.auctions.map((a) => a.endTime);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const alpha = page.auctions.find((a) => a.id === ids['alpha'])!;
    expect(alpha).toMatchObject({
      seller: s1.address,
      type: 'standard',
      status: 'active',
      currentPrice: 2,
      totalBids: 2,
      topBidder: bob.address,
      title: 'Alpha collection',
      category: 'art',
      tags: ['rare'],
      featured: false,
      snipeProtectionEnabled: false,
      snipeExtensionSeconds: 300,
      settled: false,
      winner: null,
      reserveMet: null,
    });
    expect(page.auctions.find((a) => a.id === ids['reserve'])).toMatchObject({
      reserveMet: false,
      currentPrice: 2,
    });
    expect(page.auctions.find((a) => a.id === ids['sold'])).toMatchObject({
      status: 'ended',
      settled: true,
      winner: alice.address,
      finalPrice: 3,
    });
  });

  it('filters by status, type and seller', async () => {
    expect(idsOf(expectOk(await list('?status=active')))).toEqual([
      ids['reserve'],
      ids['alpha'],
      ids['dutch'],
    ]);
    expect(idsOf(expectOk(await list('?status=upcoming')))).toEqual([ids['later']]);
    expect(idsOf(expectOk(await list('?status=cancelled')))).toEqual([ids['cancelled']]);
    expect(idsOf(expectOk(await list('?status=ended')))).toEqual([ids['sold']]);
    expect(idsOf(expectOk(await list('?type=dutch')))).toEqual([ids['dutch']]);
    expect(new Set(idsOf(expectOk(await list(`?seller=${s2.address}`))))).toEqual(
      new Set([ids['reserve'], ids['sold'], ids['cancelled']]),
    );
    expect(expectOk(await list(`?seller=${Keypair.generate().publicKey.toBase58()}`))).toMatchObject({
      total: 0,
    });
    expect(idsOf(expectOk(await list(`?status=active&seller=${s1.address}&type=standard`)))).toEqual([
      ids['alpha'],
    ]);
  });

  it('searches domain names, titles and sellers, case-insensitively', async () => {
    expect(idsOf(expectOk(await list('?search=ALPHA%20coll')))).toEqual([ids['alpha']]);
    expect(idsOf(expectOk(await list(`?search=${dutchDomain}`)))).toEqual([ids['dutch']]);
    const bySeller = expectOk(await list(`?search=${s2.address.slice(3, 15)}`));
    expect(new Set(idsOf(bySeller))).toEqual(new Set([ids['reserve'], ids['sold'], ids['cancelled']]));
    expect(expectOk(await list('?search=no-such-thing-anywhere'))).toMatchObject({ total: 0, auctions: [] });
  });

  it('sorts by current price, bids and creation, both ways', async () => {
    const byPrice = expectOk(await list('?sortBy=currentPrice&sortOrder=desc')).auctions.map(
      (a) => a.currentPrice,
    );
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    expect(expectOk(await list('?sortBy=totalBids&sortOrder=desc')).auctions[0]!.id).toBe(ids['alpha']);
    const created = expectOk(await list('?sortBy=createdAt&sortOrder=asc')).auctions.map((a) => a.createdAt);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(expectOk(await list('?sortBy=createdAt&sortOrder=desc')).auctions.at(-1)!.id).toBe(ids['alpha']);
  });

  it('paginates with a stable total and clamps pageSize to 100', async () => {
    const all = idsOf(expectOk(await list('?pageSize=100')));
    const pages = [1, 2, 3].map((p) => list(`?page=${p}&pageSize=2`));
    const results = (await Promise.all(pages)).map(expectOk);
    expect(results.map((r) => r.total)).toEqual([6, 6, 6]);
    expect(results.flatMap(idsOf)).toEqual(all);
    expect(expectOk(await list('?page=4&pageSize=2'))).toMatchObject({ auctions: [], total: 6, page: 4 });
    expect(expectOk(await list('?pageSize=500'))).toMatchObject({ pageSize: 100, total: 6 });
  });

  it('400 INVALID_REQUEST listing the allowed values or naming the parameter', async () => {
    expectError(
      await list('?status=foo'),
      400,
      'INVALID_REQUEST',
      /status.*"upcoming"\|"active"\|"ended"\|"cancelled"/,
    );
    expectError(await list('?type=auction'), 400, 'INVALID_REQUEST', /type.*standard.*buy_now/);
    expectError(await list('?sortBy=price'), 400, 'INVALID_REQUEST', /sortBy.*endTime.*createdAt/);
    expectError(await list('?sortOrder=up'), 400, 'INVALID_REQUEST', /sortOrder.*asc.*desc/);
    for (const bad of ['?page=0', '?page=1.5', '?page=x', '?pageSize=0', '?pageSize=-3', '?pageSize=2.5']) {
      expectError(await list(bad), 400, 'INVALID_REQUEST', /query\.page/);
    }
    expectError(await list('?seller=not-an-address'), 400, 'INVALID_REQUEST', /query\.seller/);
    expectError(await list(`?search=${'a'.repeat(65)}`), 400, 'INVALID_REQUEST', /query\.search/);
    expectError(
      await list('?search=ab'),
      400,
      'INVALID_REQUEST',
      /query\.search: search needs at least 3 characters/,
    );
  });

  it('detail: bids with their transactions, the next minimum, the reserve for the seller only', async () => {
    const detail = expectOk(await call<Detail>(env.baseUrl, 'GET', `/auctions/${ids['alpha']}`));
    expect(detail.bids).toEqual([
      { bidder: alice.address, amount: 1.5, timestamp: expect.any(Number), transactionId: bidSignatures[0] },
      { bidder: bob.address, amount: 2, timestamp: expect.any(Number), transactionId: bidSignatures[1] },
    ]);
    expect(detail).toMatchObject({ nextMinimumBid: 2.1, snipeWindowSeconds: 60, reservePrice: null });
    expect(detail.serverTime).toBeGreaterThanOrEqual(detail.createdAt);

    const path = `/auctions/${ids['reserve']}`;
    expect(expectOk(await call<Detail>(env.baseUrl, 'GET', path, { key: s2.key })).reservePrice).toBe(5);
    expect(expectOk(await call<Detail>(env.baseUrl, 'GET', path, { key: s1.key })).reservePrice).toBeNull();
    expect(expectOk(await call<Detail>(env.baseUrl, 'GET', path)).reservePrice).toBeNull();
    expect(
      expectOk(await call<Detail>(env.baseUrl, 'GET', `/auctions/${ids['alpha']}`, { key: s1.key }))
        .reservePrice,
    ).toBeNull();
  });

  it('detail: 400 for an id that is not an address, 404 for an auction that does not exist', async () => {
    expectError(await call(env.baseUrl, 'GET', '/auctions/xyz'), 400, 'INVALID_REQUEST', /path\.id/);
    expectError(
      await call(env.baseUrl, 'GET', `/auctions/${Keypair.generate().publicKey.toBase58()}`),
      404,
      'NOT_FOUND',
    );
  });

  it('moves statuses and the Dutch price with chain time', async () => {
    const before = expectOk(await call<Detail>(env.baseUrl, 'GET', `/auctions/${ids['dutch']}`)).currentPrice;
    // The same pages read before the warp: what is cached of them (rendered pages, the index's
    // computed pages) must not outlive the chain seconds they hold for.
    const cachedBefore = await Promise.all(['?type=dutch', '?status=active', '?status=ended'].map(list));
    // Chain time runs on between the two reads: the list's price is the detail's or a later one.
    const listedBefore = expectOk(cachedBefore[0]!).auctions[0]!.currentPrice;
    expect(listedBefore).toBeLessThanOrEqual(before);
    await env.t.warp(3_700);
    const dutch = expectOk(await list('?type=dutch')).auctions[0]!;
    expect(dutch.currentPrice).toBeLessThan(listedBefore);
    expect(dutch.currentPrice).toBeGreaterThanOrEqual(1);
    expect(idsOf(expectOk(await list('?status=active')))).toEqual([ids['dutch'], ids['later']]);
    expect(new Set(idsOf(expectOk(await list('?status=ended'))))).toEqual(
      new Set([ids['sold'], ids['reserve'], ids['alpha']]),
    );
  });
});
