import { type ConnectionOptions, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { RedisKeys } from '../redis/keys.js';
import { type DeliveryContext, deliverOnce } from './deliver.js';
import type { DeliverySettings } from './delivery-settings.js';
import type { WebhookSubscriptionStore } from './subscription-store.js';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const BACKOFF_TYPE = 'webhook-schedule';

/** One event for one subscription. The body is built once, so every attempt sends the same bytes. */
export interface DeliveryJob {
  readonly subscriptionId: string;
  readonly eventId: string;
  readonly event: string;
  readonly body: string;
}

/** Deterministic, so enqueueing the same (event, subscription) twice is a no-op in BullMQ. */
export const deliveryJobId = (eventId: string, subscriptionId: string) => `dlv_${eventId}_${subscriptionId}`;

export interface QueueConnection {
  readonly redisUrl: string;
  readonly keys: RedisKeys;
}

export type DeliveryQueue = Queue<DeliveryJob, string, string, DeliveryJob, string, string>;

// BullMQ opens its own (blocking) connections from these options; it requires unlimited retries.
const bullConnection = (url: string): ConnectionOptions => ({ url, maxRetriesPerRequest: null });

export function createDeliveryQueue(connection: QueueConnection, settings: DeliverySettings): DeliveryQueue {
  return new Queue<DeliveryJob, string, string, DeliveryJob, string, string>(DELIVERY_QUEUE, {
    connection: bullConnection(connection.redisUrl),
    prefix: connection.keys.bullPrefix,
    defaultJobOptions: {
      attempts: settings.retryDelaysMs.length,
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: { age: 24 * 3600, count: 100_000 },
      removeOnFail: { age: Math.round(settings.deliveryLogRetentionMs / 1_000) },
    },
  });
}

class DeliveryFailedError extends Error {
  override readonly name = 'DeliveryFailedError';
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/**
 * The delay before the next attempt (`attemptsMade` have failed): the schedule's next entry with
 * jitter, or the receiver's `Retry-After`, capped at twice the scheduled delay; -1 when exhausted.
 */
export function nextDelayMs(
  attemptsMade: number,
  retryAfterMs: number | null,
  settings: DeliverySettings,
): number {
  const scheduled = settings.retryDelaysMs[attemptsMade];
  if (scheduled === undefined) return -1;
  if (retryAfterMs !== null) return Math.min(retryAfterMs, scheduled * 2);
  return Math.round(scheduled * (1 + (Math.random() * 2 - 1) * settings.jitter));
}

export interface DeliveryWorkerOptions extends QueueConnection {
  readonly store: WebhookSubscriptionStore;
  readonly context: DeliveryContext;
  readonly settings: DeliverySettings;
  readonly logger: Logger;
}

/** Delivers queued jobs; a job interrupted by a dying worker is taken up again after its lock expires. */
export function startDeliveryWorker(options: DeliveryWorkerOptions): Worker<DeliveryJob, string, string> {
  const { store, context, settings, logger } = options;
  const worker = new Worker<DeliveryJob, string, string>(
    DELIVERY_QUEUE,
    async (job) => {
      const { subscriptionId, eventId, event, body } = job.data;
      const target = await store.target(subscriptionId);
      // Deleted or deactivated since the event: nothing to deliver, and nothing to retry.
      if (!target?.active) return 'skipped';
      const attempt = job.attemptsMade + 1;
      const result = await deliverOnce(
        target,
        { eventId, event, body, attempt, countsTowardHealth: true },
        context,
      );
      if (result.outcome === 'delivered') return 'delivered';
      logger.info({ subscriptionId, eventId, attempt, error: result.error }, 'webhook delivery failed');
      if (result.outcome === 'gone') throw new UnrecoverableError(result.error);
      throw new DeliveryFailedError(result.error, result.retryAfterMs);
    },
    {
      connection: bullConnection(options.redisUrl),
      prefix: options.keys.bullPrefix,
      concurrency: settings.concurrency,
      lockDuration: settings.jobLockMs,
      stalledInterval: Math.max(100, Math.floor(settings.jobLockMs / 2)),
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) =>
          nextDelayMs(
            attemptsMade,
            error instanceof DeliveryFailedError ? error.retryAfterMs : null,
            settings,
          ),
      },
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'webhook delivery worker error'));
  return worker;
}
