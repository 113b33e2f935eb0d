import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'bullmq';
import type { Deps } from '../composition.js';
import { runWhileLeader } from '../redis/lease.js';
import type { DeliveryContext } from './deliver.js';
import { DeliveryLog } from './delivery-log.js';
import {
  createDeliveryQueue,
  type DeliveryJob,
  type DeliveryQueue,
  startDeliveryWorker,
} from './delivery-queue.js';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './delivery-settings.js';
import { SubscriptionDeliveryState } from './delivery-state.js';
import { sweepEndingSoon } from './ending-soon.js';
import { type FanOutDeps, runFanOut } from './fan-out.js';
import type { HostResolver } from './url-guard.js';

export interface WebhookServiceOptions {
  readonly settings?: DeliverySettings;
  /** Overrides `config.webhookAllowPrivateTargets` (tests of the production guard). */
  readonly allowPrivateTargets?: boolean;
  /** Replaces DNS for delivery targets. */
  readonly resolve?: HostResolver;
  readonly leaseTtlMs?: number;
}

/** How deliveries reach receivers: shared by the queue worker and `POST /webhooks/:id/test`. */
export function deliveryContext(deps: Deps, options: WebhookServiceOptions = {}): DeliveryContext {
  const settings = options.settings ?? DEFAULT_DELIVERY_SETTINGS;
  return {
    state: new SubscriptionDeliveryState(deps.redis, deps.keys),
    log: new DeliveryLog(deps.redis, deps.keys, settings.deliveryLogRetentionMs),
    post: {
      allowPrivateTargets: options.allowPrivateTargets ?? deps.config.webhookAllowPrivateTargets,
      resolve: options.resolve,
      timeoutMs: settings.timeoutMs,
    },
    deactivateAfterMs: settings.deactivateAfterMs,
  };
}

export interface WebhookService {
  readonly queue: DeliveryQueue;
  readonly worker: Worker<DeliveryJob, string, string>;
  /** Starts another delivery worker on the same queue (tests replace a killed one with it). */
  startWorker(): Worker<DeliveryJob, string, string>;
  /** One ending-soon sweep now, at the chain's time. */
  sweepEndingSoon(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Webhook delivery in the worker process: the fan-out (event log → one job per subscriber) and
 * the ending-soon sweep each run under a lease; delivery workers run in every process.
 */
export function startWebhooks(deps: Deps, options: WebhookServiceOptions = {}): WebhookService {
  const settings = options.settings ?? DEFAULT_DELIVERY_SETTINGS;
  const logger = deps.logger.child({ component: 'webhooks' });
  const queue = createDeliveryQueue(deps, settings);
  const context = deliveryContext(deps, options);
  const workers: Worker<DeliveryJob, string, string>[] = [];
  const startWorker = () => {
    const worker = startDeliveryWorker({ ...deps, store: deps.webhooks, context, settings, logger });
    workers.push(worker);
    return worker;
  };
  const fanOutDeps: FanOutDeps = {
    redisUrl: deps.redisUrl,
    keys: deps.keys,
    store: deps.webhooks,
    auctionIndex: deps.auctionIndex,
    queue,
  };
  const sweep = async () =>
    sweepEndingSoon(
      { ...fanOutDeps, redis: deps.redis },
      await deps.chainClock.now(),
      settings.endingSoonLeadSeconds,
    );

  const stopping = new AbortController();
  const leader = (name: string) => ({
    redis: deps.redis,
    keys: deps.keys,
    name,
    ttlMs: options.leaseTtlMs ?? 30_000,
    signal: stopping.signal,
    onError: (error: unknown) => logger.warn({ err: error }, `${name} error`),
  });
  const fanOut = runWhileLeader(leader('webhook-fan-out'), (leading) =>
    runFanOut(fanOutDeps, leading, settings.fanOutBlockMs),
  );
  const endingSoon = runWhileLeader(leader('webhook-ending-soon'), async (leading) => {
    while (!leading.aborted) {
      await sweep().catch((error: unknown) => logger.warn({ err: error }, 'ending-soon sweep failed'));
      await sleep(settings.endingSoonSweepEveryMs, undefined, { signal: leading }).catch(() => undefined);
    }
  });
  const worker = startWorker();

  return {
    queue,
    worker,
    startWorker,
    sweepEndingSoon: sweep,
    async stop() {
      stopping.abort();
      await Promise.all([fanOut, endingSoon]);
      await Promise.all(workers.map((w) => w.close()));
      await queue.close();
    },
  };
}
