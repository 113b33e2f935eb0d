/**
 * The one programmatic control surface of the strategy runner, over Redis only: the CLI and the
 * MCP tools start, list and stop strategy instances through it, and any runner process on the same
 * Redis prefix (`npm run agents -- run`) executes them. Nothing here needs a wallet or the API.
 *
 *   const control = await createAgentsControl({ redisUrl, redisPrefix: 'sns:' });
 *   await control.startStrategy({ strategy: 'late-proxy', mode: 'live', config: { auctionId, maxBid: 10 } });
 *   await control.listStrategies();      // InstanceSummary[]
 *   await control.stopStrategy(id);      // stops after its current evaluation
 *   await control.killSwitch(true);      // no runner places another bid; every instance stops
 */
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { formatSol, solToLamports } from '../../src/core/money.js';
import { connectRedis } from '../../src/redis/client.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { BUILTIN_STRATEGIES } from '../strategies/index.js';
import {
  type InstanceRecord,
  InstanceStore,
  type StrategySpec,
  StrategySpecSchema,
} from './instance-store.js';
import { createAgentsQueue, type EvalJob, scheduleInstance, unscheduleInstance } from './scheduler.js';

export interface InstanceSummary {
  readonly id: string;
  readonly strategy: string;
  readonly mode: string;
  readonly status: string;
  readonly outcome: string | null;
  readonly reason: string | null;
  readonly auctions: string[];
  readonly bids: { auctionId: string; amountSol: string; at: number; signature: string | null }[];
  /** Chain ms of the next planned decision, when one is planned. */
  readonly nextWakeAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface AgentsControl {
  startStrategy(spec: StrategySpec): Promise<InstanceSummary>;
  listStrategies(): Promise<InstanceSummary[]>;
  getStrategy(id: string): Promise<InstanceSummary | null>;
  stopStrategy(id: string): Promise<InstanceSummary | null>;
  /** On: every runner refuses to bid and stops every instance it evaluates. Off: clears it. */
  killSwitch(on?: boolean): Promise<{ killSwitch: boolean; running: number }>;
  close(): Promise<void>;
}

export class StrategyConfigError extends Error {
  override readonly name = 'StrategyConfigError';
}

export function summarize(r: InstanceRecord): InstanceSummary {
  const strategy = BUILTIN_STRATEGIES.get(r.strategy);
  const parsed = strategy?.config.safeParse(r.config);
  return {
    id: r.id,
    strategy: r.strategy,
    mode: r.mode,
    status: r.status,
    outcome: r.outcome,
    reason: r.reason,
    auctions: strategy && parsed?.success ? strategy.auctionIds(parsed.data) : [],
    bids: r.bids.map((b) => ({
      auctionId: b.auctionId,
      amountSol: formatSol(BigInt(b.amount)),
      at: b.at,
      signature: b.signature,
    })),
    nextWakeAt: r.nextWakeAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Validates a spec into a new record: unknown strategies and bad configs fail naming the field. */
export function recordOf(input: StrategySpec, nowMs: number): InstanceRecord {
  const spec = StrategySpecSchema.parse(input);
  const strategy = BUILTIN_STRATEGIES.get(spec.strategy);
  if (!strategy) {
    throw new StrategyConfigError(
      `strategy: unknown "${spec.strategy}"; one of ${[...BUILTIN_STRATEGIES.keys()].join(', ')}`,
    );
  }
  const parsed = strategy.config.safeParse(spec.config);
  if (!parsed.success) {
    throw new StrategyConfigError(
      `config of ${spec.strategy}: ${z.prettifyError(parsed.error).replaceAll('\n', '; ')}`,
    );
  }
  return {
    id: spec.id ?? `${spec.strategy}-${randomUUID().slice(0, 8)}`,
    strategy: spec.strategy,
    config: spec.config,
    mode: spec.mode,
    maxSpendLamports: spec.maxSpendSol === undefined ? null : solToLamports(spec.maxSpendSol).toString(),
    status: 'running',
    outcome: null,
    reason: null,
    state: strategy.initialState(parsed.data),
    bids: [],
    createdAt: nowMs,
    updatedAt: nowMs,
    nextWakeAt: null,
  };
}

export async function createAgentsControl(options: {
  redisUrl: string;
  redisPrefix: string;
}): Promise<AgentsControl> {
  const redis: Redis = await connectRedis(options.redisUrl);
  const keys = createRedisKeys(options.redisPrefix);
  const store = new InstanceStore(redis, keys);
  const queue: Queue<EvalJob> = createAgentsQueue(options.redisUrl, keys);
  const get = async (id: string) => {
    const r = await store.get(id);
    return r ? summarize(r) : null;
  };
  return {
    async startStrategy(spec) {
      const record = recordOf(spec, Date.now());
      if (!(await store.create(record))) {
        const existing = (await store.get(record.id))!;
        if (existing.status !== 'running') {
          throw new StrategyConfigError(
            `id: instance ${record.id} exists and is ${existing.status}; pick another id`,
          );
        }
        return summarize(existing);
      }
      await scheduleInstance(queue, record.id);
      return summarize(record);
    },
    listStrategies: async () => (await store.list()).map(summarize),
    getStrategy: get,
    async stopStrategy(id) {
      if (!(await store.get(id))) return null;
      await store.requestStop(id);
      await unscheduleInstance(queue, id);
      const r = (await store.get(id))!;
      if (r.status === 'running') {
        r.status = 'stopped';
        r.reason = 'stopped by request';
        await store.save(r);
      }
      return get(id);
    },
    async killSwitch(on = true) {
      await store.setKillSwitch(on);
      const all = await store.list();
      if (on)
        await Promise.all(all.filter((r) => r.status === 'running').map((r) => store.requestStop(r.id)));
      return { killSwitch: on, running: all.filter((r) => r.status === 'running').length };
    },
    async close() {
      await queue.close();
      await redis.quit();
    },
  };
}
