import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../src/client/api-error.js';
import { type ResponseInfo, SnsAuctionClient } from '../../src/client/sns-auction-client.js';
import {
  type AuctionApiEnv,
  createViaApi,
  signAndSend,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';

describe('SnsAuctionClient against the real API', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let bidder: Wallet;
  const seen: ResponseInfo[] = [];

  beforeAll(async () => {
    env = await startAuctionApi('client', { indexer: true });
    seller = await walletWithKey(env);
    bidder = await walletWithKey(env);
  });
  afterAll(() => env.close());

  const clientOf = (wallet: Wallet) =>
    new SnsAuctionClient({ baseUrl: env.baseUrl, apiKey: wallet.key, onResponse: (info) => seen.push(info) });

  it('reads, bids and reports rate-limit headers', async () => {
    const { auctionId, signature } = await createViaApi(env, seller);
    await env.api.indexer?.caughtUp(signature);
    const client = clientOf(bidder);

    expect((await client.me()).walletAddress).toBe(bidder.address);
    const detail = await client.getAuction(auctionId);
    expect(detail.id).toBe(auctionId);
    const list = await client.listAuctions({ seller: seller.address, pageSize: 5 });
    expect(list.auctions.map((a) => a.id)).toContain(auctionId);

    const prepared = await client.placeBid(auctionId, 1.5);
    expect(prepared.bidAmount).toBe(1.5);
    await signAndSend(env.connection, prepared.transaction, bidder.keypair);
    expect((await client.getAuction(auctionId)).topBidder).toBe(bidder.address);

    const bidCall = seen.find((s) => s.path === `/auctions/${auctionId}/bid`);
    expect(bidCall?.rateLimit).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('turns error envelopes into ApiError with the spec code and details', async () => {
    const { auctionId } = await createViaApi(env, seller, { startingPrice: 2 });
    const error = await clientOf(bidder)
      .placeBid(auctionId, 1)
      .catch((e: unknown) => e);
    expect(isApiError(error, 'BID_TOO_LOW')).toBe(true);
    if (!isApiError(error)) throw error;
    expect(error.status).toBe(400);
    expect(error.details).toMatchObject({ minimumBid: 2 });

    const unknownKey = new SnsAuctionClient({ baseUrl: env.baseUrl, apiKey: 'sk_test_nope' });
    await expect(unknownKey.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('reports an unreachable API as UNREACHABLE, not a crash', async () => {
    const client = new SnsAuctionClient({ baseUrl: 'http://127.0.0.1:1/api/v1' });
    await expect(client.marketAnalytics()).rejects.toMatchObject({ code: 'UNREACHABLE', status: 0 });
  });
});
