import { Redis } from 'ioredis';
import type { AuctionIndex } from '../indexer/auction-index.js';
import { eventLogEntry } from '../indexer/event-log.js';
import type { RedisKeys } from '../redis/keys.js';
import { type ApiEvent, apiEventsOf, webhookBody } from './api-events.js';
import { type DeliveryQueue, deliveryJobId } from './delivery-queue.js';
import type { WebhookSubscriptionStore } from './subscription-store.js';

/** The consumer group of the event log that turns program events into deliveries. */
export const FAN_OUT_GROUP = 'webhooks';
// One consumer name: the fan-out runs under a lease, and a successor must see its predecessor's
// unacknowledged entries as its own pending ones.
const CONSUMER = 'fan-out';
const BATCH = 100;

export interface FanOutDeps {
  readonly redisUrl: string;
  readonly keys: RedisKeys;
  readonly store: WebhookSubscriptionStore;
  readonly auctionIndex: AuctionIndex;
  readonly queue: DeliveryQueue;
}

/** Enqueues one job per (API event, subscriber); duplicates (same job id) are no-ops. */
export async function enqueueForSubscribers(deps: FanOutDeps, event: ApiEvent, domains: readonly string[]) {
  const subscribers = await deps.store.subscribersOf(event.event);
  if (subscribers.length === 0) return 0;
  const body = webhookBody(event, domains);
  await deps.queue.addBulk(
    subscribers.map((s) => ({
      name: event.event,
      data: { subscriptionId: s.id, eventId: event.id, event: event.event, body },
      opts: { jobId: deliveryJobId(event.id, s.id) },
    })),
  );
  return subscribers.length;
}

export async function domainsOf(index: AuctionIndex, auctionId: string): Promise<string[]> {
  const auction = await index.get(auctionId as Parameters<AuctionIndex['get']>[0]);
  return auction ? auction.account.domains.map((d) => d.name) : [];
}

/**
 * Reads the event log through a consumer group and enqueues the deliveries of each event, then
 * acknowledges it: an entry is acknowledged only after its jobs exist, and a restart first
 * re-reads its pending entries (their jobs dedupe), so no event is lost or delivered twice.
 * Runs until `signal` aborts.
 */
export async function runFanOut(deps: FanOutDeps, signal: AbortSignal, blockMs: number): Promise<void> {
  const stream = deps.keys.eventLog();
  const reader = new Redis(deps.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  try {
    await reader.connect();
    await reader.xgroup('CREATE', stream, FAN_OUT_GROUP, '0', 'MKSTREAM').catch((error: Error) => {
      if (!error.message.includes('BUSYGROUP')) throw error;
    });
    let cursor = '0';
    while (!signal.aborted) {
      const reply = (await reader.xreadgroup(
        'GROUP',
        FAN_OUT_GROUP,
        CONSUMER,
        'COUNT',
        BATCH,
        'BLOCK',
        cursor === '0' ? 1 : blockMs,
        'STREAMS',
        stream,
        cursor,
      )) as [string, [string, string[]][]][] | null;
      const rows = reply?.[0]?.[1] ?? [];
      if (cursor === '0' && rows.length === 0) cursor = '>';
      for (const [streamId, fields] of rows) {
        if (signal.aborted) return;
        const entry = eventLogEntry(streamId, fields);
        for (const event of apiEventsOf(entry)) {
          const domains =
            entry.name === 'AuctionCreated'
              ? (entry.data['domains'] as string[])
              : await domainsOf(deps.auctionIndex, event.auctionId);
          await enqueueForSubscribers(deps, event, domains);
        }
        await reader.xack(stream, FAN_OUT_GROUP, streamId);
      }
    }
  } finally {
    reader.disconnect();
  }
}
