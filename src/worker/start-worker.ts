import { type AnalyticsConsumer, startAnalyticsConsumer } from '../analytics/analytics-consumer.js';
import type { Deps } from '../composition.js';
import { type Indexer, startIndexer } from '../indexer/indexer.js';
import { type Keeper, startKeeper } from '../keeper/keeper.js';
import { startWebhooks, type WebhookService } from '../webhooks/start-webhooks.js';

export interface Worker {
  readonly indexer: Indexer;
  readonly keeper: Keeper;
  readonly analytics: AnalyticsConsumer;
  readonly webhooks: WebhookService;
  stop(): Promise<void>;
}

/**
 * The background half of the service: the indexer (follows the program into the Redis index and
 * event log), the keeper (settles ended auctions) and the analytics consumer (keeps market,
 * collection and profile aggregates from the event log). Each holds a Redis lease, so any number of
 * workers can run; one of each is active.
 */
export function startWorker(deps: Deps): Worker {
  const indexer = startIndexer({
    connection: deps.connection,
    redis: deps.redis,
    keys: deps.keys,
    index: deps.auctionIndex,
    chainClock: deps.chainClock,
    logger: deps.logger.child({ component: 'indexer' }),
  });
  const keeper = startKeeper({ ...deps, logger: deps.logger.child({ component: 'keeper' }) });
  const webhooks = startWebhooks(deps);
  const analytics = startAnalyticsConsumer({
    ...deps,
    logger: deps.logger.child({ component: 'analytics' }),
  });
  return {
    indexer,
    keeper,
    analytics,
    webhooks,
    async stop() {
      await webhooks.stop();
      await analytics.stop();
      await keeper.stop();
      await indexer.stop();
    },
  };
}
