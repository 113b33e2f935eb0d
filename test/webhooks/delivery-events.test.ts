/**
 * Program events become signed webhook deliveries: auctions created and bid on through the API on
 * a real localnet, the indexer's event log, the fan-out and the BullMQ delivery worker, received
 * by a real HTTP server that verifies every request with the `standardwebhooks` library.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY_SETTINGS } from '../../src/webhooks/delivery-settings.js';
import { startWebhooks, type WebhookService } from '../../src/webhooks/start-webhooks.js';
import { call } from '../helpers/api.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  expectOk,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { type ReceivedRequest, type Receiver, startReceiver } from './receiver.js';

let env: AuctionApiEnv;
let service: WebhookService;
let receiver: Receiver;
let seller: Wallet;
let secret: string;
let subscriptionId: string;

beforeAll(async () => {
  env = await startAuctionApi('webhook-events', { indexer: true });
  // A one-hour lead puts every fresh auction (shortest duration 15 min) inside the ending-soon window.
  service = startWebhooks(env.api.deps, {
    settings: {
      ...DEFAULT_DELIVERY_SETTINGS,
      endingSoonLeadSeconds: 3_600,
      endingSoonSweepEveryMs: 3_600_000,
    },
  });
  receiver = await startReceiver();
  seller = await walletWithKey(env);
  const created = expectOk(
    await call<{ subscriptionId: string; secret: string }>(env.baseUrl, 'POST', '/webhooks/create', {
      key: seller.key,
      body: {
        url: `${receiver.url}/hooks`,
        events: ['auction.created', 'auction.bid', 'auction.outbid', 'auction.ending_soon'],
      },
    }),
  );
  secret = created.secret;
  subscriptionId = created.subscriptionId;
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
  await env?.close();
});

const ofEvent = (received: readonly ReceivedRequest[], event: string, auctionId: string) =>
  received.filter((r) => r.json.event === event && r.json['auctionId'] === auctionId);

function expectSignedAsSpecified(request: ReceivedRequest) {
  const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  expect(verified).toEqual(request.json);
  const h = request.headers;
  expect(h['x-webhook-id']).toBe(request.json.id);
  expect(h['webhook-id']).toBe(request.json.id);
  expect(h['x-webhook-event']).toBe(request.json.event);
  expect(h['x-webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(h['webhook-signature']).toBe(h['x-webhook-signature']);
  expect(h['webhook-timestamp']).toBe(h['x-webhook-timestamp']);
  const seconds = Number(h['x-webhook-timestamp']);
  expect(Math.abs(seconds - Date.now() / 1_000)).toBeLessThan(60);
  expect(request.json.id).toMatch(/^evt_[1-9A-HJ-NP-Za-km-z]+(_outbid)?$/);
  expect(Number.isInteger(request.json['timestamp'])).toBe(true);
  expect(request.json['timestamp'] as number).toBeGreaterThan(1e12);
}

describe('program events to webhook deliveries', () => {
  it('delivers created, bid and outbid, signed as API.md says, each event once', async () => {
    const bidderA = await walletWithKey(env);
    const bidderB = await walletWithKey(env);
    const auction = await createViaApi(env, seller, { durationHours: 0.25 }, 2);
    await bidViaApi(env, bidderA, auction.auctionId, 1);
    await bidViaApi(env, bidderB, auction.auctionId, 1.5);

    const received = await receiver.waitFor(
      (r) =>
        ofEvent(r, 'auction.created', auction.auctionId).length === 1 &&
        ofEvent(r, 'auction.bid', auction.auctionId).length === 2 &&
        ofEvent(r, 'auction.outbid', auction.auctionId).length === 1,
    );
    const mine = received.filter((r) => r.json['auctionId'] === auction.auctionId);
    for (const request of mine) {
      expectSignedAsSpecified(request);
      expect(request.path).toBe('/hooks');
      expect(request.json['domain']).toBe(auction.domainNames[0]);
      expect(request.json.data['domains']).toEqual(auction.domainNames);
    }
    const bids = ofEvent(received, 'auction.bid', auction.auctionId).map((r) => r.json.data);
    expect(bids).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ bidder: bidderA.address, bidAmount: 1 }),
        expect.objectContaining({ bidder: bidderB.address, bidAmount: 1.5 }),
      ]),
    );
    const [outbid] = ofEvent(received, 'auction.outbid', auction.auctionId);
    expect(outbid!.json.data).toMatchObject({
      previousBidder: bidderA.address,
      bidder: bidderB.address,
      bidAmount: 1.5,
    });
    const [bidB] = ofEvent(received, 'auction.bid', auction.auctionId).filter(
      (r) => r.json.data['bidder'] === bidderB.address,
    );
    expect(outbid!.json.id).toBe(`${bidB!.json.id}_outbid`);
    expect(new Set(mine.map((r) => r.json.id)).size).toBe(mine.length);

    const list = expectOk(
      await call<{ webhooks: { id: string; lastDelivery: number | null }[] }>(
        env.baseUrl,
        'GET',
        '/webhooks',
        {
          key: seller.key,
        },
      ),
    );
    expect(list.webhooks.find((w) => w.id === subscriptionId)?.lastDelivery).toBeGreaterThan(0);
  });

  it('announces an auction ending soon once per end time', async () => {
    const auction = await createViaApi(env, seller, { durationHours: 0.25 });
    await env.api.indexer!.caughtUp(auction.signature);
    expect(await service.sweepEndingSoon()).toBeGreaterThanOrEqual(1);
    expect(await service.sweepEndingSoon()).toBe(0);
    const received = await receiver.waitFor(
      (r) => ofEvent(r, 'auction.ending_soon', auction.auctionId).length > 0,
    );
    const endingSoon = ofEvent(received, 'auction.ending_soon', auction.auctionId);
    expect(endingSoon).toHaveLength(1);
    expectSignedAsSpecified(endingSoon[0]!);
    expect(endingSoon[0]!.json['domain']).toBe(auction.domainNames[0]);
    expect(endingSoon[0]!.json.data['endTime']).toBeGreaterThan(Date.now() - 60_000);
  });
});
