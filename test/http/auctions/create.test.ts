import { PublicKey, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchAuction } from '../../../src/chain/auction-client.js';
import { reserveCommitment, reserveSalt } from '../../../src/core/reserve-commitment.js';
import { call } from '../../helpers/api.js';
import { expectDomainOwners } from '../../helpers/auction.js';
import {
  type AuctionApiEnv,
  createViaApi,
  expectOk,
  signAndSend,
  signAndSendV0,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../../helpers/auction-api.js';
import { expectError } from '../fixtures.js';

interface Created {
  auctionId: string;
  transaction: string;
  seller: string;
  status: string;
  estimatedStartTime: number;
  blockhash: string;
  lastValidBlockHeight: number;
  expiresAt: number;
  rules: Record<string, number>;
}

describe('POST /auctions/create', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let clock = Date.now();

  beforeAll(async () => {
    env = await startAuctionApi('http-auction-create', { nowMs: () => clock });
    seller = await walletWithKey(env);
  });
  afterAll(() => env?.close());
  // Every test starts in a fresh rate-limit minute (create allows 10 per minute and key).
  beforeEach(() => {
    clock += 60_000;
  });

  const create = (body: unknown, key = seller.key) =>
    call<Created>(env.baseUrl, 'POST', '/auctions/create', { key, body });
  const validBody = async (overrides: Record<string, unknown> = {}, owner = seller) => ({
    domainNames: await env.t.registerDomains(owner.keypair.publicKey, 1),
    type: 'standard',
    startingPrice: 1.5,
    minBidIncrement: 0.25,
    durationHours: 2,
    ...overrides,
  });

  it('returns the unsigned legacy transaction, the PDA id and the rules; landing it escrows the domains', async () => {
    const body = await validBody({
      snipeProtectionEnabled: true,
      snipeExtensionSeconds: 120,
      title: 'Two names',
    });
    const chainNow = (await env.t.localnet.getTime()).unixTimestamp;
    const res = await create(body);
    const data = expectOk(res);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    expect(data).toEqual({
      auctionId: expect.any(String),
      transaction: expect.any(String),
      seller: seller.address,
      status: 'upcoming',
      estimatedStartTime: expect.any(Number),
      blockhash: expect.any(String),
      lastValidBlockHeight: expect.any(Number),
      expiresAt: expect.any(Number),
      rules: {
        minimumBid: 1.5,
        snipeWindowSeconds: 60,
        snipeExtensionSeconds: 120,
        endTime: data.estimatedStartTime + 7_200_000,
        serverTime: data.estimatedStartTime,
      },
    });
    // The API reads the confirmed Clock, which may trail the newest slot by a second.
    expect(Math.abs(data.estimatedStartTime - chainNow * 1000)).toBeLessThanOrEqual(2_000);
    expect(data.expiresAt).toBeGreaterThan(Date.now());

    const tx = Transaction.from(Buffer.from(data.transaction, 'base64'));
    expect(tx.feePayer?.toBase58()).toBe(seller.address);
    expect(tx.recentBlockhash).toBe(data.blockhash);
    expect(tx.signatures.map((s) => s.publicKey.toBase58())).toEqual([seller.address]);

    await signAndSend(env.connection, data.transaction, seller.keypair);
    await expectDomainOwners(env.t, body.domainNames, new PublicKey(data.auctionId));
    const account = await fetchAuction(env.connection, new PublicKey(data.auctionId));
    expect(account).toMatchObject({
      seller: seller.address,
      auctionType: 'standard',
      startingPrice: 1_500_000_000n,
      minIncrement: 250_000_000n,
      snipeEnabled: true,
      snipeExtensionSeconds: 120,
      reserveCommitment: null,
    });
    expect(account!.endTs - account!.startTs).toBe(7_200n);

    const detail = expectOk(
      await call<Record<string, unknown>>(env.baseUrl, 'GET', `/auctions/${data.auctionId}`),
    );
    expect(detail).toMatchObject({
      title: 'Two names',
      status: 'active',
      snipeWindowSeconds: 60,
      category: 'general',
    });
  });

  it('builds a v0 transaction on request, which lands the same way', async () => {
    const body = await validBody({ txVersion: 0 });
    const data = expectOk(await create(body));
    await signAndSendV0(env.connection, data.transaction, seller.keypair);
    await expectDomainOwners(env.t, body.domainNames, new PublicKey(data.auctionId));
  });

  it('commits a hidden reserve the service can open, and only the seller reads it back', async () => {
    const data = expectOk(await create(await validBody({ type: 'reserve', reservePrice: 7.25 })));
    await signAndSend(env.connection, data.transaction, seller.keypair);
    const account = await fetchAuction(env.connection, new PublicKey(data.auctionId));
    const stored = await env.api.deps.reserves.get(data.auctionId);
    expect(stored).toBe(7_250_000_000n);
    const salt = reserveSalt(env.api.deps.chain.reserveSecret, data.auctionId);
    expect([...account!.reserveCommitment!]).toEqual([...reserveCommitment(7_250_000_000n, salt)]);

    const path = `/auctions/${data.auctionId}`;
    expect(expectOk(await call(env.baseUrl, 'GET', path, { key: seller.key }))).toMatchObject({
      reservePrice: 7.25,
    });
    expect(expectOk(await call(env.baseUrl, 'GET', path))).toMatchObject({
      reservePrice: null,
      reserveMet: false,
    });
  });

  it('schedules a later start: upcoming until then, bids refused with the start time', async () => {
    const chainNow = (await env.t.localnet.getTime()).unixTimestamp;
    const startTime = (chainNow + 600) * 1000;
    const data = expectOk(await create(await validBody({ startTime, durationHours: 0.5 })));
    expect(data.estimatedStartTime).toBe(startTime);
    expect(data.rules.endTime).toBe(startTime + 1_800_000);
    await signAndSend(env.connection, data.transaction, seller.keypair);

    const detail = expectOk(
      await call<{ status: string; startTime: number }>(env.baseUrl, 'GET', `/auctions/${data.auctionId}`),
    );
    expect(detail).toMatchObject({ status: 'upcoming', startTime });
    const bidder = await walletWithKey(env, { using: seller.key });
    const bid = await call(env.baseUrl, 'POST', `/auctions/${data.auctionId}/bid`, {
      key: bidder.key,
      body: { bidAmount: 2 },
    });
    expectError(
      bid,
      400,
      'AUCTION_ENDED',
      `has not started yet: bidding opens at ${new Date(startTime).toISOString()}`,
    );
    expect(bid.body).toMatchObject({ details: { status: 'upcoming' } });
  });

  it('refuses a start in the past', async () => {
    const chainNow = (await env.t.localnet.getTime()).unixTimestamp;
    expectError(
      await create(await validBody({ startTime: (chainNow - 60) * 1000 })),
      400,
      'INVALID_REQUEST',
      /startTime/,
    );
  });

  it('404 NOT_FOUND naming a domain nobody registered', async () => {
    const registered = await env.t.registerDomains(seller.keypair.publicKey, 1);
    const res = await create({
      ...(await validBody()),
      domainNames: [...registered, 'never-registered-x.sol'],
    });
    expectError(res, 404, 'NOT_FOUND', /never-registered-x\.sol/);
  });

  it("403 UNAUTHORIZED naming a domain the key's wallet does not own", async () => {
    const other = await walletWithKey(env, { using: seller.key });
    const theirs = await env.t.registerDomains(other.keypair.publicKey, 1);
    const mine = await env.t.registerDomains(seller.keypair.publicKey, 1);
    const res = await create({ ...(await validBody()), domainNames: [...mine, ...theirs] });
    expectError(res, 403, 'UNAUTHORIZED', new RegExp(`${theirs[0]!.replace('.', '\\.')} is not owned`));
  });

  it('400 when the seller cannot pay the auction account rent and the fee, with the numbers', async () => {
    const poor = await walletWithKey(env, { using: seller.key, lamports: 1_000_000n });
    const res = await create(await validBody({}, poor), poor.key);
    expectError(
      res,
      400,
      'INVALID_REQUEST',
      /insufficient balance: the seller wallet holds 0\.001 SOL and needs 0\.00\d+ SOL/,
    );
  });

  it('401 without a key or with an invalid one; 403 for a read-only key', async () => {
    const body = await validBody();
    expectError(await call(env.baseUrl, 'POST', '/auctions/create', { body }), 401, 'UNAUTHORIZED');
    expectError(await create(body, 'sk_test_1111111111111111111111111'), 401, 'UNAUTHORIZED');
    const readonly = await walletWithKey(env, { using: seller.key, type: 'readonly' });
    expectError(await create(body, readonly.key), 403, 'UNAUTHORIZED', /read-only key/);
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ['no domains', { domainNames: [] }, /domainNames/],
    [
      'six domains',
      { domainNames: ['a1a.sol', 'a2a.sol', 'a3a.sol', 'a4a.sol', 'a5a.sol', 'a6a.sol'] },
      /domainNames/,
    ],
    ['a name without .sol', { domainNames: ['fine.sol', 'nosuffix'] }, /domainNames\[1\].*end with \.sol/],
    ['a name too short', { domainNames: ['.s'] }, /domainNames\[0\].*3 to 63 characters/],
    ['a name too long', { domainNames: [`${'a'.repeat(60)}.sol`] }, /domainNames\[0\].*3 to 63/],
    ['a duplicate', { domainNames: ['dup-name.sol', 'dup-name.sol'] }, /domainNames\[1\].*listed twice/],
    ['an unknown type', { type: 'vickrey' }, /type.*standard.*dutch.*reserve.*buy_now/],
    ['a duration under 15 minutes', { durationHours: 0.2 }, /durationHours/],
    ['a duration over 30 days', { durationHours: 721 }, /durationHours/],
    ['a price with 10 decimals', { startingPrice: 1.0000000001 }, /startingPrice.*9 decimals/],
    ['a zero starting price', { startingPrice: 0 }, /startingPrice.*greater than 0/],
    ['a zero increment', { minBidIncrement: 0 }, /minBidIncrement.*greater than 0/],
    ['a negative price', { startingPrice: -1 }, /startingPrice/],
    ['a price as text', { startingPrice: '1' }, /startingPrice/],
    ['reserve without reservePrice', { type: 'reserve' }, /reservePrice.*required when type is reserve/],
    ['buy_now without buyNowPrice', { type: 'buy_now' }, /buyNowPrice.*required when type is buy_now/],
    ['dutch without dutchEndPrice', { type: 'dutch' }, /dutchEndPrice.*required when type is dutch/],
    [
      'dutch floor above the start',
      { type: 'dutch', dutchEndPrice: 2 },
      /dutchEndPrice.*below startingPrice/,
    ],
    ['a reserve on a standard auction', { reservePrice: 3 }, /reservePrice.*only to type reserve/],
    ['an extension past a day', { snipeExtensionSeconds: 86_401 }, /snipeExtensionSeconds/],
    ['an unknown txVersion', { txVersion: 1 }, /txVersion: must be 0 \(v0\) or "legacy"/],
    ['too many tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, /tags/],
  ];
  it.each(invalid)('400 INVALID_REQUEST naming the field: %s', async (_, overrides, message) => {
    const res = await create({
      domainNames: ['valid-name.sol'],
      type: 'standard',
      startingPrice: 1.5,
      minBidIncrement: 0.25,
      durationHours: 2,
      ...overrides,
    });
    expectError(res, 400, 'INVALID_REQUEST', message);
  });

  it('accepts every type with its own price and lists the created auctions under their ids', async () => {
    const dutch = await createViaApi(env, seller, { type: 'dutch', startingPrice: 5, dutchEndPrice: 1 });
    const buyNow = await createViaApi(env, seller, { type: 'buy_now', startingPrice: 3, buyNowPrice: 3 });
    const rules = (dutch.response as unknown as Created).rules;
    expect(rules.minimumBid).toBe(5);
    for (const { auctionId } of [dutch, buyNow]) {
      const detail = expectOk(await call<{ seller: string }>(env.baseUrl, 'GET', `/auctions/${auctionId}`));
      expect(detail.seller).toBe(seller.address);
    }
    expect(expectOk(await call(env.baseUrl, 'GET', `/auctions/${buyNow.auctionId}`))).toMatchObject({
      type: 'buy_now',
      buyNowPrice: 3,
      currentPrice: 3,
      dutchEndPrice: null,
    });
  });
});
