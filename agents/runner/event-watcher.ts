/**
 * Reacting to the market: the indexer appends every program event to a Redis Stream (the same log
 * the service's webhooks are fed from). The watcher tails it (XREAD BLOCK, no consumer group: every
 * runner sees every event) and, for an auction some instance watches, drops the cached view and
 * promotes that instance's delayed job, so an outbid is answered at once instead of at the next
 * poll. Polling stays the fallback: a missed event only costs latency.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { eventLogEntry } from '../../src/indexer/event-log.js';
import type { RedisKeys } from '../../src/redis/keys.js';
import { type EvalJob, wakeInstance } from './scheduler.js';
import type { ViewSource } from './view-source.js';

export interface EventWatcher {
  stop(): Promise<void>;
}

export function watchEventStream(options: {
  /** A dedicated connection: XREAD BLOCK holds it. */
  readonly reader: Redis;
  /** The service's keys (its prefix), where the indexer's event log lives. */
  readonly serviceKeys: RedisKeys;
  readonly queue: Queue<EvalJob>;
  readonly views: ViewSource;
  readonly watchers: ReadonlyMap<string, ReadonlySet<string>>;
  readonly blockMs?: number;
}): EventWatcher {
  let stopped = false;
  let last = '$';
  // A failed XREAD is retried by the loop; the connection's own error events are not news.
  options.reader.on('error', () => undefined);
  const loop = (async () => {
    while (!stopped) {
      try {
        const reply = await options.reader.xread(
          'COUNT',
          500,
          'BLOCK',
          options.blockMs ?? 1_000,
          'STREAMS',
          options.serviceKeys.eventLog(),
          last,
        );
        for (const [, rows] of reply ?? []) {
          for (const [streamId, fields] of rows) {
            last = streamId;
            const auctionId = String(eventLogEntry(streamId, fields).data['auction'] ?? '');
            const instances = options.watchers.get(auctionId);
            if (!instances) continue;
            options.views.invalidate(auctionId);
            await Promise.all([...instances].map((id) => wakeInstance(options.queue, id)));
          }
        }
      } catch {
        if (!stopped) await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      options.reader.disconnect();
      await loop;
    },
  };
}
