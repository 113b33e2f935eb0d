/**
 * Every REST error code becomes an isError result that says what to do next, triggered against
 * the real API where the service can produce it (INTERNAL_ERROR cannot be provoked on purpose, so
 * its text is checked on the mapper).
 */
import { Keypair, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApiError } from '../../mcp/errors.js';
import { ApiError } from '../../src/client/api-error.js';
import {
  type AuctionApiEnv,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { connectMcp, type Harness } from './mcp-harness.js';

describe('REST errors as actionable isError results', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let bidder: Wallet;
  let mcp: Harness;
  const extra: Harness[] = [];
  // A fixed rate-limiter clock: the rate-limit case stays inside one minute bucket.
  const clock = Date.now();

  beforeAll(async () => {
    env = await startAuctionApi('mcp-errors', { nowMs: () => clock });
    seller = await walletWithKey(env);
    bidder = await walletWithKey(env, { using: seller.key });
    mcp = await connectMcp(env, bidder);
  });
  afterAll(async () => {
    await mcp?.close();
    for (const h of extra) await h.close();
    await env?.close();
  });

  it('BID_TOO_LOW names the minimum and the next call', async () => {
    const { auctionId } = await createViaApi(env, seller, { startingPrice: 2.6 });
    const text = await mcp.fails('bid_place', { auctionId, amountSol: 1 });
    expect(text).toMatch(/bid below the minimum of 2\.6 SOL.*Call auction_get.*amountSol >= 2\.6/);
  });

  it('without a wallet, a prepared bid says to sign elsewhere and is a legacy transaction for the key wallet', async () => {
    const { auctionId } = await createViaApi(env, seller);
    const prepared = await mcp.ok<{ nextStep: string; transactionBase64: string }>('bid_place', {
      auctionId,
      amountSol: 1,
    });
    expect(prepared.nextStep).toMatch(/No wallet is configured here: sign transactionBase64 with wallet/);
    const tx = Transaction.from(Buffer.from(prepared.transactionBase64, 'base64'));
    expect(tx.feePayer?.toBase58()).toBe(bidder.address);
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).not.toContain('tx_submit');
  });

  it('AUCTION_ENDED says to settle; INVALID_REQUEST relays the rule (settling too early)', async () => {
    const { auctionId } = await createViaApi(env, seller, { durationHours: 0.25 });
    expect(await mcp.fails('auction_settle', { auctionId })).toMatch(
      /invalid request \(.*auction ends at .*\)\. Fix what the message names .*wait until the time/,
    );
    await env.t.warp(901);
    expect(await mcp.fails('bid_place', { auctionId, amountSol: 5 })).toMatch(
      /the auction is ended .*call auction_settle/,
    );
  });

  it('NOT_FOUND points at auctions_list', async () => {
    const nowhere = Keypair.generate().publicKey.toBase58();
    expect(await mcp.fails('auction_get', { auctionId: nowhere })).toMatch(
      /not found .*auctions_list returns auction ids/,
    );
    expect(await mcp.fails('webhook_delete', { webhookId: 'wh_nope' })).toMatch(/not found/);
  });

  it('UNAUTHORIZED: a refused key says not to retry; a read-only key says it may not write', async () => {
    const refused = await connectMcp(env, bidder, { apiKey: 'sk_test_this_key_does_not_exist_000000' });
    extra.push(refused);
    expect(await refused.fails('webhooks_list')).toMatch(
      /API key was refused .*Do not retry.*SNS_AUCTION_API_KEY/,
    );

    const readonly = await walletWithKey(env, { using: seller.key, type: 'readonly' });
    const reader = await connectMcp(env, readonly);
    extra.push(reader);
    const { auctionId } = await createViaApi(env, seller);
    expect(await reader.fails('bid_place', { auctionId, amountSol: 1 })).toMatch(
      /may not do this .*read-only/,
    );
  });

  it('RATE_LIMITED reports the wait time', async () => {
    const spammer = await walletWithKey(env, { using: seller.key });
    const h = await connectMcp(env, spammer);
    extra.push(h);
    const create = () =>
      h.call('auction_create', {
        domainNames: ['notmine-xyz.sol'],
        type: 'standard',
        startingPrice: 1,
        minBidIncrement: 0.1,
        durationHours: 1,
      });
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await create());
    expect(results.every((r) => r.isError)).toBe(true);
    const last = results.at(-1)!.content[0];
    expect(last?.type === 'text' && last.text).toMatch(
      /rate limited \(Rate limit exceeded.*\)\. Wait \d+ seconds, then call again/,
    );
    expect(results.at(-1)!._meta?.['sns-auction/error']).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('UNREACHABLE says the API did not answer', async () => {
    const down = await connectMcp(env, bidder, { baseUrl: 'http://127.0.0.1:1/api/v1' });
    extra.push(down);
    expect(await down.fails('market_stats')).toMatch(/did not answer .*SNS_AUCTION_API_URL/);
  });

  it('INTERNAL_ERROR asks for one retry', () => {
    const text = describeApiError(
      new ApiError(500, 'INTERNAL_ERROR', 'Internal server error'),
      'auction_get',
    );
    expect(text).toBe(
      'auction_get: the auction service failed (Internal server error). Retry once in a few seconds; if it fails again, report it.',
    );
  });

  it('invalid arguments are isError results naming the field, not protocol errors', async () => {
    const text = await mcp.fails('bid_place', { auctionId: 'not-an-id', amountSol: -1 });
    expect(text).toMatch(/Input validation error/);
    expect(text).toMatch(/auctionId/);
    expect(text).toMatch(/amountSol/);
    expect(await mcp.fails('bid_place', { auctionId: seller.address, amountSol: 1.0000000001 })).toMatch(
      /at most 9 decimals/,
    );
  });
});
