import type { Deps } from '../composition.js';
import { type Indexer, startIndexer } from '../indexer/indexer.js';
import { type Keeper, startKeeper } from '../keeper/keeper.js';

export interface Worker {
  readonly indexer: Indexer;
  readonly keeper: Keeper;
  stop(): Promise<void>;
}

/**
 * The background half of the service: the indexer (follows the program into the Redis index and
 * event log) and the keeper (settles ended auctions). Each holds a Redis lease, so any number of
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
  return {
    indexer,
    keeper,
    async stop() {
      await keeper.stop();
      await indexer.stop();
    },
  };
}
