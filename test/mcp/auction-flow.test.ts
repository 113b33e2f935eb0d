import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { connectMcp, type Harness } from './mcp-harness.js';

interface Prepared {
  preparedId: string;
  auctionId: string;
  transaction: {
    feePayer: string;
    programs: { name: string }[];
    simulation: { ok: boolean; feePayerOutflowSol: string };
  };
}
interface Submitted {
  status: string;
  signature: string;
  outflowSol: string;
}

const resourceText = (r: { contents: ({ text: string } | { blob: string })[] }) => {
  const first = r.contents[0];
  return first && 'text' in first ? first.text : '';
};

describe('MCP tools against the real API: list, detail, create, bid, settle', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let bidder: Wallet;
  let sellerMcp: Harness;
  let bidderMcp: Harness;

  beforeAll(async () => {
    env = await startAuctionApi('mcp-flow', { indexer: true });
    seller = await walletWithKey(env);
    bidder = await walletWithKey(env);
    sellerMcp = await connectMcp(env, seller, { signer: true });
    bidderMcp = await connectMcp(env, bidder, { signer: true });
  });
  afterAll(async () => {
    await sellerMcp?.close();
    await bidderMcp?.close();
    await env?.close();
  });

  it('creates (prepare → submit), lists, shows, bids (prepare → submit), settles', async () => {
    const [domain] = await env.t.registerDomains(seller.keypair.publicKey, 1);
    const created = await sellerMcp.ok<Prepared & { endTime: string }>('auction_create', {
      domainNames: [domain],
      type: 'standard',
      startingPrice: 1,
      minBidIncrement: 0.1,
      durationHours: 0.25,
    });
    expect(created.transaction.feePayer).toBe(seller.address);
    expect(created.transaction.programs.map((p) => p.name)).toContain('sns-auction program');
    expect(created.transaction.simulation.ok).toBe(true);
    const createSent = await sellerMcp.ok<Submitted>('tx_submit', { preparedId: created.preparedId });
    expect(createSent.status).toBe('confirmed');
    const landed = await env.connection.getSignatureStatus(createSent.signature);
    expect(landed.value?.err).toBeNull();
    await env.api.indexer?.caughtUp(createSent.signature);
    const auctionId = created.auctionId;

    const list = await bidderMcp.ok<{
      auctions: { id: string; domains: string[] }[];
      nextPage: number | null;
    }>('auctions_list', {
      // No status filter: list reads use a chain clock cached up to 400 ms, so an auction created
      // this instant may still read as upcoming there (auction_get reads the clock fresh).
      seller: seller.address,
      search: domain!.replace(/\.sol$/, ''),
      limit: 5,
    });
    expect(list.auctions.map((a) => a.id)).toEqual([auctionId]);
    expect(list.nextPage).toBeNull();

    const detail = await bidderMcp.ok<{
      status: string;
      rules: { nextMinimumBid: number; secondsLeft: number };
    }>('auction_get', { auctionId });
    expect(detail.status).toBe('active');
    expect(detail.rules.nextMinimumBid).toBe(1);
    expect(detail.rules.secondsLeft).toBeGreaterThan(800);

    const bid = await bidderMcp.ok<Prepared & { bidAmount: number }>('bid_place', {
      auctionId,
      amountSol: 1.5,
    });
    expect(bid.bidAmount).toBe(1.5);
    // Simulated outflow: the bid escrowed plus the signature fee.
    expect(Number(bid.transaction.simulation.feePayerOutflowSol)).toBeGreaterThanOrEqual(1.5);
    expect(Number(bid.transaction.simulation.feePayerOutflowSol)).toBeLessThan(1.51);
    const before = await env.connection.getBalance(bidder.keypair.publicKey);
    const bidSent = await bidderMcp.ok<Submitted>('tx_submit', { preparedId: bid.preparedId });
    expect(bidSent.status).toBe('confirmed');
    const after = await env.connection.getBalance(bidder.keypair.publicKey);
    expect(BigInt(before - after)).toBe(BigInt(Math.round(Number(bidSent.outflowSol) * 1e9)));

    const afterBid = await bidderMcp.ok<{ topBidder: string; bids: { bidder: string; amount: number }[] }>(
      'auction_get',
      { auctionId },
    );
    expect(afterBid.topBidder).toBe(bidder.address);

    // The same preparedId cannot be signed twice.
    expect(await bidderMcp.fails('tx_submit', { preparedId: bid.preparedId })).toMatch(
      /unknown or expired preparedId/,
    );

    await env.t.warp(901);
    const settled = await bidderMcp.ok<{ winner: string; finalPrice: number; alreadySettled: boolean }>(
      'auction_settle',
      { auctionId },
    );
    expect(settled).toMatchObject({ winner: bidder.address, finalPrice: 1.5, alreadySettled: false });
    const again = await bidderMcp.ok<{ alreadySettled: boolean }>('auction_settle', { auctionId });
    expect(again.alreadySettled).toBe(true);

    const resource = JSON.parse(
      resourceText(await bidderMcp.client.readResource({ uri: `auction://${auctionId}` })),
    );
    expect(resource).toMatchObject({ id: auctionId, status: 'ended', settled: true, winner: bidder.address });
    expect(resource.bids).toHaveLength(1);
  });

  it('watches an auction: returns when a bid lands, or at the timeout without change', async () => {
    const { auctionId } = await createViaApi(env, seller);
    let polled!: () => void;
    const firstPoll = new Promise<void>((resolve) => {
      polled = resolve;
    });
    const watching = bidderMcp.client.callTool(
      { name: 'auction_watch', arguments: { auctionId, timeoutSeconds: 60 } },
      undefined,
      { onprogress: () => polled(), timeout: 90_000 },
    );
    await firstPoll;
    await bidViaApi(env, bidder, auctionId, 1.2);
    const seen = (await watching).structuredContent as {
      changed: boolean;
      changes: string[];
      auction: object;
    };
    expect(seen.changed).toBe(true);
    expect(seen.changes[0]).toMatch(/^new bid: 1\.2 SOL by \w+ \(1 bids\)$/);
    expect(seen.auction).toMatchObject({ totalBids: 1, topBidder: bidder.address, nextMinimumBid: 1.3 });

    const quiet = await bidderMcp.ok<{ changed: boolean; waitedSeconds: number }>('auction_watch', {
      auctionId,
      timeoutSeconds: 1,
    });
    expect(quiet.changed).toBe(false);
    expect(quiet.waitedSeconds).toBeGreaterThanOrEqual(1);
    expect(quiet.waitedSeconds).toBeLessThan(10);
  });

  it('reads analytics, profiles and webhooks; resources and prompts answer', async () => {
    const market = await bidderMcp.ok<{ activeAuctions: number }>('market_stats');
    expect(market.activeAuctions).toBeGreaterThanOrEqual(0);
    await bidderMcp.ok('collection_stats');
    const me = await bidderMcp.ok<{ address: string }>('user_profile_get');
    expect(me.address).toBe(bidder.address);

    const hook = await bidderMcp.ok<{ subscriptionId: string; secret: string }>('webhook_create', {
      url: 'https://example.com/hook',
      events: ['auction.outbid'],
    });
    expect(hook.secret).toMatch(/^whsec_/);
    const hooks = await bidderMcp.ok<{ webhooks: { id: string }[] }>('webhooks_list');
    expect(hooks.webhooks.map((w) => w.id)).toContain(hook.subscriptionId);
    await bidderMcp.ok('webhook_delete', { webhookId: hook.subscriptionId });
    expect((await bidderMcp.ok<{ total: number }>('webhooks_list')).total).toBe(0);

    const stats = await bidderMcp.client.readResource({ uri: 'market://stats' });
    expect(JSON.parse(resourceText(stats))).toHaveProperty('activeAuctions');
    const profile = await bidderMcp.client.readResource({ uri: `user://${bidder.address}` });
    expect(JSON.parse(resourceText(profile)).address).toBe(bidder.address);
    const prompt = await bidderMcp.client.getPrompt({
      name: 'bidding_plan',
      arguments: { auctionId: 'X', budgetSol: '3' },
    });
    expect(JSON.stringify(prompt.messages)).toContain('policy_get');
  });
});
