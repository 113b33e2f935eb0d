import { Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchAuction } from '../../../src/chain/auction-client.js';
import { call } from '../../helpers/api.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  expectOk,
  signAndSend,
  signAndSendV0,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../../helpers/auction-api.js';
import { expectError } from '../fixtures.js';

interface PreparedBid {
  transaction: string;
  auctionId: string;
  bidder: string;
  bidAmount: number;
  nextMinimumBid: number;
  timestamp: number;
  blockhash: string;
  lastValidBlockHeight: number;
  expiresAt: number;
  rules: {
    minimumBid: number;
    snipeWindowSeconds: number;
    snipeExtensionSeconds: number;
    endTime: number;
    serverTime: number;
  };
}

describe('POST /auctions/:id/bid', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  let clock = Date.now();

  beforeAll(async () => {
    env = await startAuctionApi('http-auction-bid', { nowMs: () => clock });
    seller = await walletWithKey(env);
    [alice, bob] = await Promise.all([
      walletWithKey(env, { using: seller.key }),
      walletWithKey(env, { using: seller.key }),
    ]);
  });
  afterAll(() => env?.close());
  beforeEach(() => {
    clock += 60_000;
  });

  const bid = (auctionId: string, body: unknown, key = alice.key) =>
    call<PreparedBid>(env.baseUrl, 'POST', `/auctions/${auctionId}/bid`, { key, body });

  it('returns the unsigned bid for the key wallet with the next minimum and the bidding rules', async () => {
    const { auctionId } = await createViaApi(env, seller, {
      startingPrice: 2,
      minBidIncrement: 0.1,
      snipeProtectionEnabled: true,
      snipeExtensionSeconds: 120,
    });
    const account = await fetchAuction(env.connection, new PublicKey(auctionId));
    const res = await bid(auctionId, { bidAmount: 2.5, auctionId });
    const data = expectOk(res);
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(data).toEqual({
      transaction: expect.any(String),
      auctionId,
      bidder: alice.address,
      bidAmount: 2.5,
      nextMinimumBid: 2.6,
      timestamp: expect.any(Number),
      blockhash: expect.any(String),
      lastValidBlockHeight: expect.any(Number),
      expiresAt: expect.any(Number),
      rules: {
        minimumBid: 2,
        snipeWindowSeconds: 60,
        snipeExtensionSeconds: 120,
        endTime: Number(account!.endTs) * 1000,
        serverTime: data.timestamp,
      },
    });
    const tx = Transaction.from(Buffer.from(data.transaction, 'base64'));
    expect(tx.feePayer?.toBase58()).toBe(alice.address);
    expect(tx.signatures).toHaveLength(1);

    await signAndSend(env.connection, data.transaction, alice.keypair);
    expectError(
      await bid(auctionId, { bidAmount: 2.59 }, bob.key),
      400,
      'BID_TOO_LOW',
      'Bid too low: minimum bid is 2.6 SOL',
    );
    const tooLow = await bid(auctionId, { bidAmount: 2.59 }, bob.key);
    expect(tooLow.body).toMatchObject({ details: { minimumBid: 2.6 } });
  });

  it('builds a v0 bid on request', async () => {
    const { auctionId } = await createViaApi(env, seller);
    const data = expectOk(await bid(auctionId, { bidAmount: 1, txVersion: 0 }));
    await signAndSendV0(env.connection, data.transaction, alice.keypair);
    expect(await fetchAuction(env.connection, new PublicKey(auctionId))).toMatchObject({
      topBidder: alice.address,
      topBid: 1_000_000_000n,
    });
  });

  it('BID_TOO_LOW below the starting price of a first bid', async () => {
    const { auctionId } = await createViaApi(env, seller, { startingPrice: 3 });
    expectError(await bid(auctionId, { bidAmount: 2.999999999 }), 400, 'BID_TOO_LOW', 'minimum bid is 3 SOL');
  });

  it('400 INVALID_REQUEST when the seller bids on its own auction', async () => {
    const { auctionId } = await createViaApi(env, seller);
    expectError(
      await bid(auctionId, { bidAmount: 5 }, seller.key),
      400,
      'INVALID_REQUEST',
      /seller cannot bid/,
    );
  });

  it('AUCTION_ENDED after the end, saying to settle', async () => {
    const { auctionId } = await createViaApi(env, seller, { durationHours: 0.25 });
    await env.t.warp(901);
    const res = await bid(auctionId, { bidAmount: 5 });
    expectError(res, 400, 'AUCTION_ENDED', /ended at .*settle it/);
    expect(res.body).toMatchObject({ details: { status: 'ended' } });
  });

  it('AUCTION_ENDED on a cancelled auction and on a sold one, saying which', async () => {
    const cancelled = await createViaApi(env, seller);
    const prepared = expectOk(
      await call<{ transaction: string }>(env.baseUrl, 'POST', `/auctions/${cancelled.auctionId}/cancel`, {
        key: seller.key,
      }),
    );
    await signAndSend(env.connection, prepared.transaction, seller.keypair);
    expectError(await bid(cancelled.auctionId, { bidAmount: 5 }), 400, 'AUCTION_ENDED', /cancelled/);

    const sold = await createViaApi(env, seller, { type: 'buy_now', startingPrice: 2, buyNowPrice: 2 });
    await bidViaApi(env, bob, sold.auctionId, 2);
    const res = await bid(sold.auctionId, { bidAmount: 5 });
    expectError(res, 400, 'AUCTION_ENDED', /sold/);
    expect(res.body).toMatchObject({ details: { status: 'sold' } });
  });

  it('snipe protection: a bid inside the window moves the end by the extension', async () => {
    const { auctionId } = await createViaApi(env, seller, {
      durationHours: 0.25,
      snipeProtectionEnabled: true,
      snipeExtensionSeconds: 300,
    });
    const before = await fetchAuction(env.connection, new PublicKey(auctionId));
    const chainNow = BigInt((await env.t.localnet.getTime()).unixTimestamp);
    await env.t.warp(Number(before!.endTs - chainNow) - 30);
    await bidViaApi(env, alice, auctionId, 1);
    const detail = expectOk(
      await call<{ endTime: number; status: string }>(env.baseUrl, 'GET', `/auctions/${auctionId}`),
    );
    expect(detail).toMatchObject({ endTime: (Number(before!.endTs) + 300) * 1000, status: 'active' });
  });

  it('404 NOT_FOUND for an auction that does not exist; 400 for an id that is not an address', async () => {
    const nowhere = Keypair.generate().publicKey.toBase58();
    expectError(await bid(nowhere, { bidAmount: 1 }), 404, 'NOT_FOUND', new RegExp(nowhere));
    expectError(await bid('not-an-address', { bidAmount: 1 }), 400, 'INVALID_REQUEST', /id/);
  });

  it('400 naming bidAmount or auctionId for bad bodies', async () => {
    const { auctionId } = await createViaApi(env, seller);
    const cases: [unknown, RegExp][] = [
      [{ bidAmount: 1.0000000001 }, /bidAmount.*9 decimals/],
      [{ bidAmount: 0 }, /bidAmount/],
      [{ bidAmount: -1 }, /bidAmount/],
      [{ bidAmount: '2' }, /bidAmount/],
      [{}, /bidAmount/],
      [undefined, /body/],
      [{ bidAmount: 2, auctionId: Keypair.generate().publicKey.toBase58() }, /auctionId.*must match/],
    ];
    for (const [body, message] of cases)
      expectError(await bid(auctionId, body), 400, 'INVALID_REQUEST', message);
  });

  it('400 when the bidder cannot pay the bid and the fee', async () => {
    const poor = await walletWithKey(env, { using: seller.key, lamports: 500_000_000n });
    const { auctionId } = await createViaApi(env, seller);
    expectError(
      await bid(auctionId, { bidAmount: 1 }, poor.key),
      400,
      'INVALID_REQUEST',
      'insufficient balance for bidAmount: the bidder wallet holds 0.5 SOL and needs 1.000005 SOL (bid 1 + fee 0.000005)',
    );
  });

  it('401 without a key or with an unknown one', async () => {
    const { auctionId } = await createViaApi(env, seller);
    expectError(
      await call(env.baseUrl, 'POST', `/auctions/${auctionId}/bid`, { body: { bidAmount: 1 } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await bid(auctionId, { bidAmount: 1 }, 'sk_test_2222222222222222222222222'),
      401,
      'UNAUTHORIZED',
    );
  });
});
