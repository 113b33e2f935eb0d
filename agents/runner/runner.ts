/**
 * The runner: a BullMQ worker that evaluates strategy instances. Each evaluation reads the views
 * (shared per auction), asks the strategy, carries out its bids and persists the result, then
 * re-schedules the instance at its wake-up (a little early, finishing the wait in-process so the
 * bid fires on time) or at the next poll, whichever comes first.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../../src/redis/keys.js';
import { withPaperBid } from '../auction-view.js';
import { BUILTIN_STRATEGIES } from '../strategies/index.js';
import type { AuctionView, StrategyDefinition } from '../strategy.js';
import type { ChainClock } from './chain-clock.js';
import { type BidResult, type ExecutorDeps, executeBid } from './executor.js';
import { type InstanceRecord, InstanceStore, ownBids } from './instance-store.js';
import { type EvalJob, startAgentsWorker } from './scheduler.js';
import type { ViewSource } from './view-source.js';

export interface RunnerOptions {
  readonly redis: Redis;
  readonly redisUrl: string;
  readonly keys: RedisKeys;
  readonly wallet: string;
  readonly views: ViewSource;
  readonly clock: ChainClock;
  readonly executor: ExecutorDeps;
  readonly strategies?: ReadonlyMap<string, StrategyDefinition>;
  /** Re-decide at least this often (local ms) when nothing is planned sooner. Default 2000. */
  readonly pollMs?: number;
  /** Wake this much before a planned instant, then wait the rest in-process. Default 1500. */
  readonly leadMs?: number;
  readonly concurrency?: number;
  /**
   * A timed bid fires as soon as the chain's own clock (`chainTime`) shows the planned instant;
   * without it, or when it cannot be read, this long after the estimated instant. The Clock sysvar is whole seconds, set when a
   * slot starts (every 400 ms): one slot and a margin later the bid is judged at the planned
   * second. Default 450.
   */
  readonly fireDelayMs?: number;
  /** The chain's own clock (RPC), read in the last second before a timed bid; optional. */
  readonly chainTime?: { nowMs(): Promise<number> };
  readonly onEvent?: (event: RunnerEvent) => void;
  /** After each evaluation: how late it started against its schedule (null: first run) and how long it took. */
  readonly onEvaluated?: (instanceId: string, latenessMs: number | null, durationMs: number) => void;
}

export type RunnerEvent =
  | {
      type: 'bid';
      instanceId: string;
      auctionId: string;
      amount: bigint;
      signature: string | null;
      /** Local ms: the planned instant (timed bids), when the request went out, when it was confirmed. */
      plannedAt: number | null;
      firedAt: number;
      landedAt: number;
    }
  | { type: 'bid_failed'; instanceId: string; auctionId: string; amount: bigint; reason: string }
  | { type: 'done'; instanceId: string; outcome: string; reason: string }
  | { type: 'error'; instanceId: string; message: string };

const MAX_STEPS = 12;
const CHAIN_INSTANT_LOOKAHEAD_MS = 1_000;
const CHAIN_INSTANT_POLL_MS = 50;

export class Runner {
  readonly store: InstanceStore;
  readonly #strategies: ReadonlyMap<string, StrategyDefinition>;
  #worker: Worker<EvalJob> | null = null;
  /** Which instances watch which auction (for event wake-ups). */
  readonly watchers = new Map<string, Set<string>>();
  /** Local ms each instance is next due (for the lateness measurement). */
  readonly #due = new Map<string, number>();

  constructor(private readonly o: RunnerOptions) {
    this.store = new InstanceStore(o.redis, o.keys);
    this.#strategies = o.strategies ?? BUILTIN_STRATEGIES;
  }

  start(): void {
    this.#worker = startAgentsWorker(
      this.o.redisUrl,
      this.o.keys,
      (id) => this.evaluate(id),
      this.o.concurrency ?? 50,
    );
    this.#worker.on('error', () => undefined);
  }

  /** Stops taking jobs; `force` abandons running evaluations (they resume from Redis elsewhere). */
  async close(force = false): Promise<void> {
    await this.#worker?.close(force);
    this.#worker = null;
  }

  /**
   * One evaluation of an instance; returns the local ms of its next wake-up, or null when finished.
   * A failure (API or Redis unreachable) is reported and retried at the next poll: the schedule
   * must not die with one bad answer.
   */
  async evaluate(instanceId: string): Promise<number | null> {
    const started = Date.now();
    const due = this.#due.get(instanceId);
    let next: number | null;
    try {
      next = await this.#evaluate(instanceId);
    } catch (e) {
      this.o.onEvent?.({ type: 'error', instanceId, message: e instanceof Error ? e.message : String(e) });
      next = Date.now() + Math.min(this.o.pollMs ?? 2000, 5000);
    }
    if (next === null) this.#due.delete(instanceId);
    else this.#due.set(instanceId, next);
    this.o.onEvaluated?.(instanceId, due === undefined ? null : started - due, Date.now() - started);
    return next;
  }

  async #evaluate(instanceId: string): Promise<number | null> {
    const record = await this.store.get(instanceId);
    if (record?.status !== 'running') return null;
    const strategy = this.#strategies.get(record.strategy);
    if (!strategy) return this.#finish(record, 'failed', null, `unknown strategy ${record.strategy}`);
    if (await this.store.killSwitchOn()) return this.#finish(record, 'stopped', null, 'kill switch');
    if (await this.store.stopRequested(instanceId))
      return this.#finish(record, 'stopped', null, 'stopped by request');
    const parsed = strategy.config.safeParse(record.config);
    if (!parsed.success) return this.#finish(record, 'failed', null, `config: ${parsed.error.message}`);
    const config = parsed.data;
    const ids = strategy.auctionIds(config);
    for (const id of ids) this.#watch(id, instanceId);
    const pollMs = this.o.pollMs ?? 2000;
    const leadMs = this.o.leadMs ?? 1500;
    let views: Map<string, AuctionView> | null = null;
    let plannedAt: number | null = null;

    for (let step = 0; step < MAX_STEPS; step++) {
      views ??= await this.o.views.get(ids);
      const now = this.o.clock.chainNow();
      const decision = strategy.decide({
        config,
        state: record.state,
        now,
        views: record.mode === 'paper' ? this.#paperViews(views, record) : views,
        bids: ownBids(record),
      });
      record.state = decision.state;
      if (decision.done) {
        await this.#log(record, now, decision);
        return this.#finish(record, 'done', decision.done.outcome, decision.done.reason);
      }
      if (decision.actions.length > 0) {
        // A wake-up planned earlier that has passed (this evaluation started late, or the clock
        // estimate moved): the bid is still the timed one.
        const planned = record.nextWakeAt;
        if (plannedAt === null && planned !== null && now >= planned)
          plannedAt = this.o.clock.toLocal(planned);
        const results = await Promise.all(
          decision.actions.map((a) => this.#bid(record, a, now, plannedAt !== null, plannedAt)),
        );
        await this.#log(record, now, decision, results.map((r) => (r.ok ? 'ok' : r.reason)).join('; '));
        await this.store.save(record);
        for (const a of decision.actions) this.o.views.invalidate(a.auctionId);
        const final = results.find((r): r is Extract<BidResult, { retry: false }> => !r.ok && !r.retry);
        if (final) {
          if (final.end === 'kill') return this.#finish(record, 'stopped', null, final.reason);
          if (final.end === 'cap') return this.#finish(record, 'done', 'gave_up', final.reason);
          return this.#finish(record, 'failed', null, final.reason);
        }
        views = null;
        // A refused timed bid (too early for the slot, outbid meanwhile) is retried as the same
        // timed, urgent bid; once everything went through, the plan is spent.
        if (results.every((r) => r.ok)) {
          plannedAt = null;
          record.nextWakeAt = null;
        } else await sleep(150);
        continue;
      }
      const wakeLocal = decision.wakeAt === null ? null : this.o.clock.toLocal(decision.wakeAt);
      if (
        wakeLocal !== null &&
        wakeLocal - Date.now() <= leadMs &&
        wakeLocal > Date.now() - leadMs &&
        plannedAt === null
      ) {
        // Due soon: finish the wait here, then decide again on views the chain computed at the instant.
        plannedAt = wakeLocal;
        views = await this.#awaitChainInstant(ids, decision.wakeAt!, wakeLocal);
        continue;
      }
      record.nextWakeAt = decision.wakeAt;
      if (await this.store.stopRequested(instanceId))
        return this.#finish(record, 'stopped', null, 'stopped by request');
      await this.store.save(record);
      const nextPoll = Date.now() + pollMs;
      return wakeLocal === null ? nextPoll : Math.min(nextPoll, Math.max(Date.now(), wakeLocal - leadMs));
    }
    await this.store.save(record);
    return Date.now() + 250;
  }

  /**
   * Waits until the chain itself shows `chainMs`. The offset estimate can be up to a second late
   * (the Clock is whole seconds) and the slot carrying the new second starts up to 400 ms after it,
   * so with an RPC at hand the Clock sysvar is read every 50 ms from a second before the estimated
   * instant, and the first reading at or after `chainMs` ends the wait (then the views are re-read
   * once). Without one, or when reads fail, the fixed fire delay after the estimate is used.
   */
  async #awaitChainInstant(
    ids: readonly string[],
    chainMs: number,
    wakeLocal: number,
  ): Promise<Map<string, AuctionView> | null> {
    const fallbackAt = wakeLocal + (this.o.fireDelayMs ?? 450);
    const chainTime = this.o.chainTime;
    if (chainTime) {
      await sleep(Math.max(0, wakeLocal - CHAIN_INSTANT_LOOKAHEAD_MS - Date.now()));
      try {
        while (Date.now() < fallbackAt + CHAIN_INSTANT_LOOKAHEAD_MS) {
          const at = Date.now();
          const chainNow = await chainTime.nowMs();
          this.o.clock.observe(chainNow, at);
          if (chainNow >= chainMs) return await this.o.views.get(ids, 0);
          await sleep(CHAIN_INSTANT_POLL_MS);
        }
        return null;
      } catch {
        // Fall through to the fixed delay.
      }
    }
    await sleep(Math.max(0, fallbackAt - Date.now()));
    return null;
  }

  async #bid(
    record: InstanceRecord,
    action: Parameters<typeof executeBid>[2],
    now: number,
    urgent: boolean,
    plannedAt: number | null,
  ): Promise<BidResult> {
    const result = await executeBid(this.o.executor, record, action, urgent);
    if (!result.ok) {
      this.o.onEvent?.({
        type: 'bid_failed',
        instanceId: record.id,
        auctionId: action.auctionId,
        amount: action.amount,
        reason: result.reason,
      });
      return result;
    }
    record.bids.push({
      auctionId: action.auctionId,
      amount: action.amount.toString(),
      at: now,
      signature: result.signature,
      plannedAt,
      landedAt: result.landedAt,
    });
    this.o.onEvent?.({
      type: 'bid',
      instanceId: record.id,
      auctionId: action.auctionId,
      amount: action.amount,
      signature: result.signature,
      plannedAt,
      firedAt: result.firedAt,
      landedAt: result.landedAt,
    });
    return result;
  }

  #paperViews(views: Map<string, AuctionView>, record: InstanceRecord): Map<string, AuctionView> {
    const out = new Map(views);
    for (const b of ownBids(record)) {
      const v = out.get(b.auctionId);
      if (v) out.set(b.auctionId, withPaperBid(v, b, this.o.wallet));
    }
    return out;
  }

  #watch(auctionId: string, instanceId: string): void {
    const set = this.watchers.get(auctionId) ?? new Set<string>();
    set.add(instanceId);
    this.watchers.set(auctionId, set);
  }

  async #log(
    record: InstanceRecord,
    now: number,
    d: {
      actions: readonly { auctionId: string; amount: bigint; reason: string }[];
      wakeAt: number | null;
      done: { outcome: string; reason: string } | null;
    },
    result?: string,
  ) {
    await this.store.appendDecision(record.id, {
      now,
      actions: d.actions.map((a) => ({
        auctionId: a.auctionId,
        amount: a.amount.toString(),
        reason: a.reason,
      })),
      wakeAt: d.wakeAt,
      done: d.done,
      ...(result === undefined ? {} : { result }),
    });
  }

  async #finish(
    record: InstanceRecord,
    status: InstanceRecord['status'],
    outcome: string | null,
    reason: string,
  ): Promise<null> {
    record.status = status;
    record.outcome = outcome;
    record.reason = reason;
    record.nextWakeAt = null;
    await this.store.save(record);
    this.o.onEvent?.({ type: 'done', instanceId: record.id, outcome: outcome ?? status, reason });
    return null;
  }
}
