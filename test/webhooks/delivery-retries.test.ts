/**
 * Delivery under failure: retries on the (shortened) schedule until the receiver recovers, exactly
 * one successful delivery per event id, a worker dying mid-delivery, 410 Gone, redirects, and the
 * production SSRF guard at delivery time. Events enter through the indexer's event log (the outbox
 * the fan-out consumes); receivers are real HTTP servers.
 */
import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import type { Job } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '../../src/core/address.js';
import { EventLog, eventId } from '../../src/indexer/event-log.js';
import type { DeliveryJob } from '../../src/webhooks/delivery-queue.js';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from '../../src/webhooks/delivery-settings.js';
import {
  startWebhooks,
  type WebhookService,
  type WebhookServiceOptions,
} from '../../src/webhooks/start-webhooks.js';
import { call, startTestApi, type TestApi } from '../helpers/api.js';
import { expectOk } from '../helpers/auction-api.js';
import { createKey } from '../http/fixtures.js';
import { type Receiver, startReceiver } from './receiver.js';

const FAST: DeliverySettings = {
  ...DEFAULT_DELIVERY_SETTINGS,
  retryDelaysMs: [0, 30, 30, 30],
  timeoutMs: 5_000,
  jobLockMs: 1_000,
  fanOutBlockMs: 200,
};

let api: TestApi;
let service: WebhookService | undefined;
const receivers: Receiver[] = [];
let key: string;

beforeAll(async () => {
  api = await startTestApi('webhook-retries');
  key = (await createKey(api.baseUrl)).key;
});

afterEach(async () => {
  await service?.stop();
  service = undefined;
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await api?.close();
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

function start(options: WebhookServiceOptions = {}) {
  service = startWebhooks(api.deps, { settings: FAST, leaseTtlMs: 2_000, ...options });
  return service;
}

async function subscribe(url: string): Promise<{ id: string; secret: string }> {
  const data = expectOk(
    await call<{ subscriptionId: string; secret: string }>(api.baseUrl, 'POST', '/webhooks/create', {
      key,
      body: { url, events: ['auction.cancelled'] },
    }),
  );
  return { id: data.subscriptionId, secret: data.secret };
}

/** An AuctionCancelled program event; `emit` appends it to the event log, as the indexer does. */
function cancelEvent() {
  const signature = randomBytes(64).toString('hex');
  const auction = Keypair.generate().publicKey.toBase58() as Address;
  const id = eventId(signature, 0);
  const emit = () =>
    new EventLog(api.deps.redis, api.deps.keys).append([
      {
        id,
        signature,
        slot: 1,
        blockTime: Math.floor(Date.now() / 1_000),
        index: 0,
        event: { name: 'AuctionCancelled', data: { auction, seller: auction, timestamp: 1n } },
      },
    ]);
  return { id, emit };
}

/** Delivers a new event and resolves when its job for `subscription` ends (listening before it exists). */
async function deliverNew(s: WebhookService, subscription: string) {
  const event = cancelEvent();
  const outcome = settled(s, event.id, subscription);
  await event.emit();
  return { id: event.id, ...(await outcome) };
}

/** The job of (event, subscription) reaching its end: completed, or failed with no retry left. */
function settled(s: WebhookService, event: string, subscription: string) {
  const jobId = `dlv_${event}_${subscription}`;
  return new Promise<{ outcome: 'completed' | 'failed'; job: Job<DeliveryJob> }>((resolve) => {
    s.worker.on('completed', (job) => {
      if (job.id === jobId) resolve({ outcome: 'completed', job });
    });
    s.worker.on('failed', async (job) => {
      if (job?.id === jobId && (await job.getState()) === 'failed') resolve({ outcome: 'failed', job });
    });
  });
}

const subscription = async (id: string) =>
  expectOk(
    await call<{ active: boolean; lastDelivery: number | null }>(api.baseUrl, 'GET', `/webhooks/${id}`, {
      key,
    }),
  );

const deliveries = async (id: string) =>
  expectOk(
    await call<{
      deliveries: { eventId: string; success: boolean; statusCode: number | null; error: string | null }[];
    }>(api.baseUrl, 'GET', `/webhooks/${id}/deliveries`, { key }),
  ).deliveries;

describe('webhook delivery under failure', () => {
  it('retries until the receiver recovers; each event is delivered once, also across a fan-out restart', async () => {
    let failuresLeft = 2;
    const r = await receiver(() => (failuresLeft-- > 0 ? 500 : 200));
    const sub = await subscribe(`${r.url}/flaky`);
    const s = start();
    const { id: first, outcome } = await deliverNew(s, sub.id);
    expect(outcome).toBe('completed');
    await s.stop();

    // A new fan-out (another process taking over) re-reads nothing it already acknowledged.
    const s2 = start();
    const { id: second, outcome: secondOutcome } = await deliverNew(s2, sub.id);
    expect(secondOutcome).toBe('completed');

    const ids = r.received.map((q) => q.json.id);
    expect(ids.filter((id) => id === first)).toHaveLength(3);
    expect(ids.filter((id) => id === second)).toHaveLength(1);
    for (const q of r.received) new Webhook(sub.secret).verify(q.body, q.headers as Record<string, string>);
    const log = await deliveries(sub.id);
    expect(log.filter((d) => d.eventId === first).map((d) => d.statusCode)).toEqual([200, 500, 500]);
    expect((await subscription(sub.id)).lastDelivery).toBeGreaterThan(0);
  });

  it('loses nothing when the worker dies mid-delivery: another worker delivers the job', async () => {
    // The first attempt is held open: the worker dies while waiting for it.
    const r = await receiver(() => (r.received.length === 1 ? null : 200));
    const sub = await subscribe(`${r.url}/slow`);
    const s = start();
    const event = cancelEvent();
    await event.emit();
    await r.waitFor((q) => q.length === 1);
    await s.worker.close(true);
    const replacement = s.startWorker();
    const done = new Promise<string>((resolve) =>
      replacement.on('completed', (job) => {
        if (job.id === `dlv_${event.id}_${sub.id}`) resolve(job.returnvalue);
      }),
    );
    expect(await done).toBe('delivered');
    expect(r.received.filter((q) => q.json.id === event.id).length).toBeGreaterThanOrEqual(2);
  });

  it('deactivates a subscription answered with 410 Gone, without retrying', async () => {
    const r = await receiver(() => 410);
    const sub = await subscribe(`${r.url}/gone`);
    const s = start();
    expect((await deliverNew(s, sub.id)).outcome).toBe('failed');
    expect(r.received).toHaveLength(1);
    expect((await subscription(sub.id)).active).toBe(false);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const target = await receiver(() => 200);
    const r = await receiver((_, response) => {
      response.writeHead(302, { location: `${target.url}/elsewhere` }).end();
      return null;
    });
    const sub = await subscribe(`${r.url}/moved`);
    const s = start();
    expect((await deliverNew(s, sub.id)).outcome).toBe('failed');
    expect(r.received).toHaveLength(FAST.retryDelaysMs.length);
    expect(target.received).toHaveLength(0);
    const log = await deliveries(sub.id);
    expect(log.every((d) => !d.success && d.statusCode === 302 && d.error?.includes('redirect'))).toBe(true);
  });

  it('honours Retry-After on 429 instead of the scheduled delay', async () => {
    const answeredAt: number[] = [];
    const r = await receiver((_, response) => {
      answeredAt.push(performance.now());
      if (answeredAt.length > 1) return 200;
      response.writeHead(429, { 'retry-after': '0' }).end();
      return null;
    });
    const sub = await subscribe(`${r.url}/busy`);
    const s = start({ settings: { ...FAST, retryDelaysMs: [0, 10_000] } });
    expect((await deliverNew(s, sub.id)).outcome).toBe('completed');
    expect(answeredAt).toHaveLength(2);
    expect(answeredAt[1]! - answeredAt[0]!).toBeLessThan(5_000);
  });

  it('deactivates a subscription that keeps failing for the whole window', async () => {
    const r = await receiver(() => 500);
    const sub = await subscribe(`${r.url}/down`);
    const s = start({ settings: { ...FAST, retryDelaysMs: [0, 100, 100], deactivateAfterMs: 50 } });
    const { outcome, job } = await deliverNew(s, sub.id);
    // The second failure ends a 100 ms streak (> 50 ms): the third attempt finds it inactive.
    expect(outcome).toBe('completed');
    expect(job.returnvalue).toBe('skipped');
    expect(r.received).toHaveLength(2);
    expect((await subscription(sub.id)).active).toBe(false);
  });

  it('in production configuration refuses private targets at delivery time', async () => {
    const r = await receiver(() => 200);
    const port = new URL(r.url).port;
    // Stored while private targets were allowed; delivered under the strict configuration.
    const literal = await subscribe(`${r.url}/literal`);
    const mapped = await subscribe(`http://[::ffff:127.0.0.1]:${port}/mapped`);
    const named = await subscribe(`http://hooks.example.com:${port}/named`);
    const s = start({ allowPrivateTargets: false, resolve: async () => ['127.0.0.1'] });
    const event = cancelEvent();
    const outcomes = [literal, mapped, named].map((sub) => settled(s, event.id, sub.id));
    await event.emit();
    for (const [i, sub] of [literal, mapped, named].entries()) {
      expect((await outcomes[i])!.outcome).toBe('failed');
      const log = await deliveries(sub.id);
      expect(log).toHaveLength(FAST.retryDelaysMs.length);
      expect(log.every((d) => d.statusCode === null && d.error?.includes('not a public address'))).toBe(true);
    }
    expect(r.received).toHaveLength(0);
  });
});
