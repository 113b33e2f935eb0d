/**
 * API.md's compatibility client, end to end over real HTTP and a real chain: a key bootstrapped for
 * the seller, auctions created and bids placed by signing the API's legacy transactions exactly as
 * the snippet does, settlement through the API, then SNS ownership and every balance to the lamport.
 */
import { type Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransactionEvents } from '../../src/chain/auction-client.js';
import { feeSplit } from '../../src/core/auction-rules/index.js';
import { solToLamports } from '../../src/core/money.js';
import { call } from '../helpers/api.js';
import { expectDomainOwners } from '../helpers/auction.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  expectOk,
  signAndSend,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { SOL, TX_FEE } from '../helpers/localnet.js';
import { expectError } from '../http/fixtures.js';

const FEE_BPS = 250;

interface Settlement {
  auctionId: string;
  status: string;
  settled: boolean;
  winner: string | null;
  finalPrice: number | null;
  reserveMet: boolean | null;
  transactionId: string;
  settledAt: number;
  alreadySettled: boolean;
}

describe('the compatibility client of API.md, end to end', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  let keeper: PublicKey;
  let treasury: PublicKey;

  beforeAll(async () => {
    env = await startAuctionApi('e2e-compat', { feeBps: FEE_BPS });
    seller = await walletWithKey(env); // bootstrap: POST /keys/create without a key
    [alice, bob] = await Promise.all([
      walletWithKey(env, { using: seller.key }),
      walletWithKey(env, { using: seller.key }),
    ]);
    keeper = env.t.keeper.publicKey;
    treasury = env.t.treasury;
  }, 60_000);
  afterAll(() => env?.close());

  const balancesOf = (...keys: PublicKey[]) => env.t.balances(keys);
  const settleViaApi = async (auctionId: string) =>
    expectOk(
      await call<Settlement>(env.baseUrl, 'POST', `/auctions/${auctionId}/settle`, { key: seller.key }),
    );

  /** The compatibility snippet, verbatim apart from names. */
  async function snippetBid(
    base: string,
    id: string,
    key: string,
    bidderKeypair: Keypair,
    bidAmount: number,
  ) {
    const { data } = (await (
      await fetch(`${base}/auctions/${id}/bid`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ bidAmount }),
      })
    ).json()) as { data: { transaction: string } };
    const tx = Transaction.from(Buffer.from(data.transaction, 'base64')); // legacy Transaction
    tx.sign(bidderKeypair);
    const sig = await env.connection.sendRawTransaction(tx.serialize());
    await env.connection.confirmTransaction(sig, 'confirmed');
    return sig;
  }

  it('standard: create, bid, outbid, settle after the end; domains and SOL move exactly', async () => {
    const domainNames = await env.t.registerDomains(seller.keypair.publicKey, 2);
    const [seller0] = await balancesOf(seller.keypair.publicKey);

    const created = expectOk(
      await call<{ auctionId: string; transaction: string; seller: string; status: string }>(
        env.baseUrl,
        'POST',
        '/auctions/create',
        {
          key: seller.key,
          body: {
            domainNames,
            type: 'standard',
            startingPrice: 2,
            minBidIncrement: 0.5,
            durationHours: 0.25,
          },
        },
      ),
    );
    expect(created).toMatchObject({ seller: seller.address, status: 'upcoming' });
    const auctionId = created.auctionId;
    await signAndSend(env.connection, created.transaction, seller.keypair);
    expect(await balancesOf(seller.keypair.publicKey)).toEqual([seller0! - env.rent - TX_FEE]);
    await expectDomainOwners(env.t, domainNames, new PublicKey(auctionId));

    const accounts = [
      seller.keypair.publicKey,
      alice.keypair.publicKey,
      bob.keypair.publicKey,
      treasury,
      keeper,
    ];
    const [s1, a1, b1, t1, k1] = await balancesOf(...accounts);

    await snippetBid(env.baseUrl, auctionId, alice.key, alice.keypair, 2.5);
    expect(await balancesOf(alice.keypair.publicKey)).toEqual([a1! - 2_500_000_000n - TX_FEE]);

    const tooLow = await call(env.baseUrl, 'POST', `/auctions/${auctionId}/bid`, {
      key: bob.key,
      body: { bidAmount: 2.9 },
    });
    expectError(tooLow, 400, 'BID_TOO_LOW', 'Bid too low: minimum bid is 3 SOL');
    await snippetBid(env.baseUrl, auctionId, bob.key, bob.keypair, 3);

    await env.t.warp(901);
    const settlement = await settleViaApi(auctionId);
    expect(settlement).toEqual({
      auctionId,
      status: 'ended',
      settled: true,
      winner: bob.address,
      finalPrice: 3,
      reserveMet: null,
      transactionId: expect.any(String),
      settledAt: expect.any(Number),
      alreadySettled: false,
    });
    const events = await fetchTransactionEvents(env.connection, settlement.transactionId);
    expect(events?.events.map((e) => e.event.name)).toEqual(['AuctionSettled']);

    await expectDomainOwners(env.t, domainNames, bob.keypair.publicKey);
    const { fee, sellerProceeds } = feeSplit(3n * SOL, FEE_BPS);
    expect(await balancesOf(...accounts)).toEqual([
      s1! + sellerProceeds,
      a1! - TX_FEE,
      b1! - 3n * SOL - TX_FEE,
      t1! + fee,
      k1! - TX_FEE,
    ]);
    expect(await balancesOf(new PublicKey(auctionId))).toEqual([env.rent]);

    const again = await settleViaApi(auctionId);
    expect(again).toEqual({ ...settlement, alreadySettled: true });
  });

  it('dutch: the first bid buys at the price of the moment it executes; settle reports the sale', async () => {
    const { auctionId, domainNames } = await createViaApi(env, seller, {
      type: 'dutch',
      startingPrice: 10,
      dutchEndPrice: 1,
      durationHours: 1,
    });
    await env.t.warp(1_800);
    const detail = expectOk(
      await call<{ currentPrice: number }>(env.baseUrl, 'GET', `/auctions/${auctionId}`),
    );
    expect(detail.currentPrice).toBeLessThanOrEqual(5.5);
    expect(detail.currentPrice).toBeGreaterThan(1);

    const accounts = [seller.keypair.publicKey, alice.keypair.publicKey, treasury];
    const [s0, a0, t0] = await balancesOf(...accounts);
    const signature = await bidViaApi(env, alice, auctionId, 6);
    const placed = (await fetchTransactionEvents(env.connection, signature))!.events;
    expect(placed.map((e) => e.event.name)).toEqual(['BidPlaced', 'AuctionSettled']);
    const price = (placed[0]!.event.data as { amount: bigint }).amount;
    expect(price).toBeLessThanOrEqual(solToLamports(detail.currentPrice));

    await expectDomainOwners(env.t, domainNames, alice.keypair.publicKey);
    const { fee, sellerProceeds } = feeSplit(price, FEE_BPS);
    expect(await balancesOf(...accounts)).toEqual([s0! + sellerProceeds, a0! - price - TX_FEE, t0! + fee]);

    const settlement = await settleViaApi(auctionId);
    expect(settlement).toMatchObject({
      winner: alice.address,
      finalPrice: Number(price) / 1e9,
      reserveMet: null,
      transactionId: signature,
      alreadySettled: true,
    });
  });

  it('buy_now: a bid at the buy-now price sells at once', async () => {
    const { auctionId, domainNames } = await createViaApi(env, seller, {
      type: 'buy_now',
      startingPrice: 4,
      minBidIncrement: 0,
      buyNowPrice: 4,
    });
    const accounts = [seller.keypair.publicKey, bob.keypair.publicKey, treasury];
    const [s0, b0, t0] = await balancesOf(...accounts);
    const signature = await bidViaApi(env, bob, auctionId, 4);

    await expectDomainOwners(env.t, domainNames, bob.keypair.publicKey);
    const { fee, sellerProceeds } = feeSplit(4n * SOL, FEE_BPS);
    expect(await balancesOf(...accounts)).toEqual([s0! + sellerProceeds, b0! - 4n * SOL - TX_FEE, t0! + fee]);
    expect(await settleViaApi(auctionId)).toMatchObject({
      winner: bob.address,
      finalPrice: 4,
      transactionId: signature,
      alreadySettled: true,
    });
  });

  it('reserve not met: the domains go back to the seller and the top bid is refunded', async () => {
    const [s0] = await balancesOf(seller.keypair.publicKey);
    const { auctionId, domainNames } = await createViaApi(env, seller, {
      type: 'reserve',
      startingPrice: 1,
      minBidIncrement: 0.5,
      reservePrice: 5,
      durationHours: 0.25,
    });
    const [a0, t0] = await balancesOf(alice.keypair.publicKey, treasury);
    await bidViaApi(env, alice, auctionId, 2);

    const asSeller = expectOk(
      await call<{ reservePrice: number | null; reserveMet: boolean | null }>(
        env.baseUrl,
        'GET',
        `/auctions/${auctionId}`,
        {
          key: seller.key,
        },
      ),
    );
    expect(asSeller).toMatchObject({ reservePrice: 5, reserveMet: false });
    const asBidder = expectOk(
      await call<{ reservePrice: number | null }>(env.baseUrl, 'GET', `/auctions/${auctionId}`, {
        key: alice.key,
      }),
    );
    expect(asBidder.reservePrice).toBeNull();

    await env.t.warp(901);
    const settlement = await settleViaApi(auctionId);
    expect(settlement).toMatchObject({
      winner: null,
      finalPrice: null,
      reserveMet: false,
      settled: true,
      alreadySettled: false,
    });
    const names = (await fetchTransactionEvents(env.connection, settlement.transactionId))!.events.map(
      (e) => e.event.name,
    );
    expect(names).toEqual(['ReserveNotMet', 'AuctionSettled']);
    await expectDomainOwners(env.t, domainNames, seller.keypair.publicKey);
    expect(await balancesOf(seller.keypair.publicKey, alice.keypair.publicKey, treasury)).toEqual([
      s0! - env.rent - TX_FEE,
      a0! - TX_FEE,
      t0,
    ]);
  });
});
