/**
 * Strategy instances in Redis: what each one is (strategy, config, mode), its state, the bids it
 * placed and its decision log. Everything the runner needs to resume after a restart lives here
 * (plus the instance's delayed BullMQ job). Amounts are lamports as decimal strings in JSON.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { RedisKeys } from '../../src/redis/keys.js';
import type { OwnBid } from '../strategy.js';

export const RUNNER_MODES = ['live', 'paper', 'backtest'] as const;
export type RunnerMode = (typeof RUNNER_MODES)[number];

/** What a caller gives to start an instance (CLI config entry, MCP tool input). */
export const StrategySpecSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'id: 1 to 64 letters, digits, "_" or "-"')
    .optional()
    .describe('instance id; starting the same id again is a no-op while it runs'),
  strategy: z.string().min(1).describe('built-in strategy name, e.g. "late-proxy"'),
  config: z.record(z.string(), z.unknown()).describe("the strategy's own config (see its schema)"),
  mode: z.enum(['live', 'paper']).default('paper'),
  maxSpendSol: z
    .number()
    .positive()
    .optional()
    .describe('cap on the sum of this instance’s standing bids (SOL); a bid above it is refused'),
});
export type StrategySpec = z.input<typeof StrategySpecSchema>;

export type InstanceStatus = 'running' | 'done' | 'stopped' | 'failed';

export interface StoredBid {
  readonly auctionId: string;
  readonly amount: string;
  readonly at: number;
  readonly signature: string | null;
  /** Local ms the runner planned to fire it at, and when it was confirmed (timing accuracy). */
  readonly plannedAt: number | null;
  readonly landedAt: number | null;
}

export interface InstanceRecord {
  readonly id: string;
  readonly strategy: string;
  readonly config: Record<string, unknown>;
  readonly mode: RunnerMode;
  readonly maxSpendLamports: string | null;
  status: InstanceStatus;
  outcome: string | null;
  reason: string | null;
  state: unknown;
  bids: StoredBid[];
  createdAt: number;
  updatedAt: number;
  nextWakeAt: number | null;
}

export interface DecisionLogEntry {
  /** Chain ms of the decision. */
  readonly now: number;
  readonly actions: { auctionId: string; amount: string; reason: string }[];
  readonly wakeAt: number | null;
  readonly done: { outcome: string; reason: string } | null;
  readonly result?: string;
}

export const ownBids = (r: InstanceRecord): OwnBid[] =>
  r.bids.map((b) => ({ auctionId: b.auctionId, amount: BigInt(b.amount), at: b.at }));

export class InstanceStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  #key = (id: string) => this.keys.agents('instance', id);
  #index = () => this.keys.agents('instances');
  #log = (id: string) => this.keys.agents('instance', id, 'decisions');

  async get(id: string): Promise<InstanceRecord | null> {
    const raw = await this.redis.get(this.#key(id));
    return raw === null ? null : (JSON.parse(raw) as InstanceRecord);
  }

  /** Creates the record unless one with this id exists; returns whether it was created. */
  async create(record: InstanceRecord): Promise<boolean> {
    const created = await this.redis.set(this.#key(record.id), JSON.stringify(record), 'NX');
    if (created === 'OK') await this.redis.zadd(this.#index(), record.createdAt, record.id);
    return created === 'OK';
  }

  async save(record: InstanceRecord): Promise<void> {
    record.updatedAt = Date.now();
    await this.redis.set(this.#key(record.id), JSON.stringify(record));
  }

  async list(): Promise<InstanceRecord[]> {
    const ids = await this.redis.zrange(this.#index(), '0', '-1');
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(ids.map(this.#key));
    return raws.flatMap((r) => (r === null ? [] : [JSON.parse(r) as InstanceRecord]));
  }

  async appendDecision(id: string, entry: DecisionLogEntry): Promise<void> {
    await this.redis.rpush(this.#log(id), JSON.stringify(entry));
    await this.redis.ltrim(this.#log(id), -2000, -1);
  }

  async decisions(id: string): Promise<DecisionLogEntry[]> {
    return (await this.redis.lrange(this.#log(id), 0, -1)).map((r) => JSON.parse(r) as DecisionLogEntry);
  }

  /** Stop requests are a separate flag, so an evaluation in flight cannot overwrite them. */
  async requestStop(id: string): Promise<void> {
    await this.redis.set(this.keys.agents('instance', id, 'stop'), '1');
  }

  async stopRequested(id: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.agents('instance', id, 'stop'))) === 1;
  }

  async setKillSwitch(on: boolean): Promise<void> {
    if (on) await this.redis.set(this.keys.agents('kill-switch'), String(Date.now()));
    else await this.redis.del(this.keys.agents('kill-switch'));
  }

  async killSwitchOn(): Promise<boolean> {
    return (await this.redis.exists(this.keys.agents('kill-switch'))) === 1;
  }
}
