import { setTimeout as sleep } from 'node:timers/promises';
import type { AuctionDeps } from '../auctions/auction-deps.js';
import { settleAuction } from '../auctions/settle-auction.js';
import type { SettlementView } from '../auctions/settlement-record.js';
import type { Deps } from '../composition.js';
import { runWhileLeader } from '../redis/lease.js';

export interface KeeperOptions {
  /** Between sweeps; default 5 s. */
  readonly sweepEveryMs?: number;
  /** Auctions settled per sweep at most (each is one keeper transaction); default 20. */
  readonly batchSize?: number;
  readonly leaseTtlMs?: number;
}

export interface Keeper {
  /** Runs one sweep now (tests use it instead of waiting for the timer). */
  sweep(): Promise<SettlementView[]>;
  stop(): Promise<void>;
}

type KeeperDeps = AuctionDeps & Pick<Deps, 'redis' | 'keys'>;

/**
 * Settles ended auctions on its own, so domains and SOL move even when nobody calls
 * POST /settle. One keeper is active at a time (Redis lease); it goes through the same use case
 * as the API, so its settlements share the per-auction lock and record with API calls.
 */
export function startKeeper(deps: KeeperDeps, options: KeeperOptions = {}): Keeper {
  const sweepEveryMs = options.sweepEveryMs ?? 5_000;
  const batchSize = options.batchSize ?? 20;
  const stopping = new AbortController();

  async function sweep(): Promise<SettlementView[]> {
    const now = await deps.chainClock.freshNow();
    const due = await deps.auctionIndex.endedUnsettled(now, batchSize);
    const settled: SettlementView[] = [];
    for (const auctionId of due) {
      try {
        settled.push(await settleAuction(deps, auctionId));
      } catch (error) {
        // One auction that cannot settle (e.g. an unknown reserve) must not stall the others.
        deps.logger.warn({ err: error, auctionId }, 'keeper could not settle auction');
      }
    }
    if (settled.length > 0) deps.logger.info({ count: settled.length }, 'keeper settled ended auctions');
    return settled;
  }

  const running = runWhileLeader(
    {
      redis: deps.redis,
      keys: deps.keys,
      name: 'keeper',
      ttlMs: options.leaseTtlMs ?? 30_000,
      signal: stopping.signal,
      onError: (error) => deps.logger.warn({ err: error }, 'keeper error'),
    },
    async (leading) => {
      while (!leading.aborted) {
        await sweep();
        await sleep(sweepEveryMs, undefined, { signal: leading }).catch(() => undefined);
      }
    },
  );

  return {
    sweep,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
