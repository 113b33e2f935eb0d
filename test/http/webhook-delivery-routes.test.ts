/**
 * POST /webhooks/:id/test, GET /webhooks/:id/deliveries and POST /webhooks/:id/rotate-secret over
 * real HTTP, with a real receiver verifying signatures through the `standardwebhooks` library.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../helpers/api.js';
import { expectOk } from '../helpers/auction-api.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { createKey, expectError } from './fixtures.js';

let api: TestApi;
let receiver: Receiver;
let key: string;
let status = 200;

beforeAll(async () => {
  api = await startTestApi('webhook-delivery-routes');
  receiver = await startReceiver(() => status);
  key = (await createKey(api.baseUrl)).key;
});

afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

async function subscribe() {
  return expectOk(
    await call<{ subscriptionId: string; secret: string }>(api.baseUrl, 'POST', '/webhooks/create', {
      key,
      body: { url: `${receiver.url}/hooks`, events: ['auction.bid'] },
    }),
  );
}

interface TestResult {
  success: boolean;
  eventId: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const sendTest = async (id: string, as = key) =>
  call<TestResult>(api.baseUrl, 'POST', `/webhooks/${id}/test`, { key: as });

const requestOf = (eventId: string) => receiver.received.find((r) => r.json.id === eventId)!;

describe('webhook test, deliveries and secret rotation', () => {
  it('delivers a signed webhook.test synchronously and reports how the receiver answered', async () => {
    const sub = await subscribe();
    status = 200;
    const ok = expectOk(await sendTest(sub.subscriptionId));
    expect(ok).toMatchObject({ success: true, statusCode: 200, error: null });
    const request = requestOf(ok.eventId);
    expect(request.json).toMatchObject({ event: 'webhook.test', id: ok.eventId });
    expect(request.headers['x-webhook-event']).toBe('webhook.test');
    expect(new Webhook(sub.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
      request.json,
    );

    status = 500;
    const failed = expectOk(await sendTest(sub.subscriptionId));
    expect(failed).toMatchObject({ success: false, statusCode: 500 });
    expect(failed.error).toContain('500');

    const log = expectOk(
      await call<{ deliveries: { eventId: string; success: boolean; statusCode: number }[]; total: number }>(
        api.baseUrl,
        'GET',
        `/webhooks/${sub.subscriptionId}/deliveries`,
        { key },
      ),
    );
    expect(log.total).toBe(2);
    expect(log.deliveries.map((d) => [d.eventId, d.success, d.statusCode])).toEqual([
      [failed.eventId, false, 500],
      [ok.eventId, true, 200],
    ]);
    // A test is not a real delivery: lastDelivery stays unset.
    const got = expectOk(
      await call<{ lastDelivery: number | null }>(api.baseUrl, 'GET', `/webhooks/${sub.subscriptionId}`, {
        key,
      }),
    );
    expect(got.lastDelivery).toBeNull();
  });

  it('signs with both secrets after a rotation, each verifying on its own', async () => {
    const sub = await subscribe();
    status = 200;
    const rotated = expectOk(
      await call<{ id: string; secret: string; previousSecretExpiresAt: number }>(
        api.baseUrl,
        'POST',
        `/webhooks/${sub.subscriptionId}/rotate-secret`,
        { key },
      ),
    );
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(sub.secret);
    expect(rotated.previousSecretExpiresAt - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);

    const result = expectOk(await sendTest(sub.subscriptionId));
    const request = requestOf(result.eventId);
    const signatures = String(request.headers['x-webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    const headers = request.headers as Record<string, string>;
    expect(new Webhook(rotated.secret).verify(request.body, headers)).toEqual(request.json);
    expect(new Webhook(sub.secret).verify(request.body, headers)).toEqual(request.json);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request.body, headers),
    ).toThrow();
  });

  it('answers 404 for subscriptions of other keys on all three routes', async () => {
    const sub = await subscribe();
    const other = (await createKey(api.baseUrl)).key;
    const before = receiver.received.length;
    expectError(await sendTest(sub.subscriptionId, other), 404, 'NOT_FOUND', /no webhook subscription/);
    expectError(
      await call(api.baseUrl, 'GET', `/webhooks/${sub.subscriptionId}/deliveries`, { key: other }),
      404,
      'NOT_FOUND',
      /no webhook subscription/,
    );
    expectError(
      await call(api.baseUrl, 'POST', `/webhooks/${sub.subscriptionId}/rotate-secret`, { key: other }),
      404,
      'NOT_FOUND',
      /no webhook subscription/,
    );
    expect(receiver.received.length).toBe(before);
  });
});
