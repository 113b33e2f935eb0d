import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchAuction, fetchTransactionEvents } from '../../../src/chain/auction-client.js';
import { call, startTestApi, type TestApi } from '../../helpers/api.js';
import { expectDomainOwners } from '../../helpers/auction.js';
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
import { type RpcRecorder, startRpcRecorder } from '../../helpers/rpc-recorder.js';
import { expectError } from '../fixtures.js';

interface Settlement {
  winner: string | null;
  finalPrice: number | null;
  reserveMet: boolean | null;
  transactionId: string;
  settledAt: number;
  alreadySettled: boolean;
}

describe('POST /auctions/:id/settle and /cancel', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let alice: Wallet;
  let clock = Date.now();

  beforeAll(async () => {
    env = await startAuctionApi('http-auction-settle', { nowMs: () => clock });
    seller = await walletWithKey(env);
    alice = await walletWithKey(env, { using: seller.key });
  });
  afterAll(() => env?.close());
  beforeEach(() => {
    clock += 60_000;
  });

  const settle = (auctionId: string, key = alice.key, baseUrl = env.baseUrl) =>
    call<Settlement>(baseUrl, 'POST', `/auctions/${auctionId}/settle`, { key });
  const cancel = (auctionId: string, key = seller.key) =>
    call<{ transaction: string; auctionId: string; seller: string }>(
      env.baseUrl,
      'POST',
      `/auctions/${auctionId}/cancel`,
      {
        key,
      },
    );

  it('refuses to settle before the end, saying when it ends', async () => {
    const { auctionId } = await createViaApi(env, seller);
    const account = await fetchAuction(env.connection, new PublicKey(auctionId));
    const endsAt = new Date(Number(account!.endTs) * 1000).toISOString();
    expectError(await settle(auctionId), 400, 'INVALID_REQUEST', `auction ends at ${endsAt}`);
  });

  it('settles an auction without bids: the domains go back, nothing is sold', async () => {
    const { auctionId, domainNames } = await createViaApi(env, seller, { durationHours: 0.25 });
    await env.t.warp(901);
    const settlement = expectOk(await settle(auctionId));
    expect(settlement).toMatchObject({
      winner: null,
      finalPrice: null,
      reserveMet: null,
      alreadySettled: false,
    });
    await expectDomainOwners(env.t, domainNames, seller.keypair.publicKey);
    const detail = expectOk(await call(env.baseUrl, 'GET', `/auctions/${auctionId}`));
    expect(detail).toMatchObject({ status: 'ended', settled: true, winner: null, nextMinimumBid: null });
  });

  it('reveals a met reserve and sells', async () => {
    const { auctionId, domainNames } = await createViaApi(env, seller, {
      type: 'reserve',
      startingPrice: 1,
      reservePrice: 2,
      durationHours: 0.25,
    });
    await bidViaApi(env, alice, auctionId, 2.5);
    expect(expectOk(await call(env.baseUrl, 'GET', `/auctions/${auctionId}`))).toMatchObject({
      reserveMet: true,
    });
    await env.t.warp(901);
    expect(expectOk(await settle(auctionId))).toMatchObject({
      winner: alice.address,
      finalPrice: 2.5,
      reserveMet: true,
    });
    await expectDomainOwners(env.t, domainNames, alice.keypair.publicKey);
  });

  it('settles once when called concurrently on two instances: one transaction, one result for all', async () => {
    const recorder: RpcRecorder = await startRpcRecorder(env.t.localnet.rpcUrl);
    const shared = {
      localnet: env.t.localnet,
      redisPrefix: env.api.deps.keys.prefix,
      reserveSecret: env.api.deps.chain.reserveSecret,
      rpcUrl: recorder.url,
      nowMs: () => clock,
    };
    const instances: TestApi[] = [
      await startTestApi('settle-b', shared),
      await startTestApi('settle-c', shared),
    ];
    try {
      const { auctionId } = await createViaApi(env, seller, {
        type: 'reserve',
        reservePrice: 1.5,
        durationHours: 0.25,
      });
      await bidViaApi(env, alice, auctionId, 2);
      await env.t.warp(901);

      const calls = instances.flatMap((api) =>
        [0, 1, 2].map(() => settle(auctionId, alice.key, api.baseUrl)),
      );
      const results = (await Promise.all(calls)).map(expectOk);
      expect(results.filter((r) => !r.alreadySettled)).toHaveLength(1);
      const transactionId = results[0]!.transactionId;
      for (const r of results) {
        expect(r).toMatchObject({ winner: alice.address, finalPrice: 2, reserveMet: true, transactionId });
      }
      expect([...recorder.sentSignatures]).toEqual([transactionId]);

      const history = await env.connection.getSignaturesForAddress(new PublicKey(auctionId));
      const settling = [];
      for (const entry of history) {
        const events = await fetchTransactionEvents(env.connection, entry.signature);
        if (events?.events.some((e) => e.event.name === 'AuctionSettled')) settling.push(entry.signature);
      }
      expect(settling).toEqual([transactionId]);
    } finally {
      // Not api.close(): that would delete the shared prefix under the first instance.
      await Promise.all(instances.map((api) => api.app.close().then(() => api.deps.close())));
      await recorder.close();
    }
  });

  it('400 for a cancelled auction, 404 for an unknown one, 401/403 for missing or read-only keys', async () => {
    const { auctionId } = await createViaApi(env, seller);
    await signAndSend(env.connection, expectOk(await cancel(auctionId)).transaction, seller.keypair);
    expectError(await settle(auctionId), 400, 'INVALID_REQUEST', /cancelled/);
    const nowhere = Keypair.generate().publicKey.toBase58();
    expectError(await settle(nowhere), 404, 'NOT_FOUND');
    expectError(await call(env.baseUrl, 'POST', `/auctions/${auctionId}/settle`), 401, 'UNAUTHORIZED');
    const readonly = await walletWithKey(env, { using: seller.key, type: 'readonly' });
    expectError(await settle(auctionId, readonly.key), 403, 'UNAUTHORIZED', /read-only/);
  });

  it("cancel: the seller's key gets the unsigned cancel; landing it returns the domains", async () => {
    const { auctionId, domainNames } = await createViaApi(env, seller, {}, 2);
    expectError(await cancel(auctionId, alice.key), 403, 'UNAUTHORIZED', /seller/);
    const data = expectOk(await cancel(auctionId));
    expect(data).toMatchObject({ auctionId, seller: seller.address, transaction: expect.any(String) });
    await signAndSend(env.connection, data.transaction, seller.keypair);
    await expectDomainOwners(env.t, domainNames, seller.keypair.publicKey);
    expect(expectOk(await call(env.baseUrl, 'GET', `/auctions/${auctionId}`))).toMatchObject({
      status: 'cancelled',
    });
    expectError(await cancel(auctionId), 400, 'INVALID_REQUEST', /already cancelled/);
  });

  it('cancel is refused once the auction has a bid', async () => {
    const { auctionId } = await createViaApi(env, seller);
    await bidViaApi(env, alice, auctionId, 1);
    expectError(await cancel(auctionId), 400, 'INVALID_REQUEST', /with bids cannot be cancelled/);
    expectError(await cancel(Keypair.generate().publicKey.toBase58()), 404, 'NOT_FOUND');
  });
});
