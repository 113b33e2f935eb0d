/**
 * The indexer follows the auction program into the index and the event log. The websocket logs
 * subscription is only a wake-up signal (plus a periodic poll for RPCs without websockets); each
 * wake-up runs one serialized catch-up pass from the cursor in Redis. Exactly one instance is
 * active (lease "indexer"); a restart resumes from the cursor; an empty Redis rebuilds everything.
 */
import { EventEmitter, once } from 'node:events';
import type { Connection, PublicKey } from '@solana/web3.js';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AUCTION_PROGRAM } from '../chain/auction-accounts.js';
import { ChainClock } from '../chain/chain-clock.js';
import type { RedisKeys } from '../redis/keys.js';
import { runWhileLeader } from '../redis/lease.js';
import { AuctionIndex } from './auction-index.js';
import { type CatchUpDeps, catchUp, type Progress } from './catch-up.js';
import { EventLog, type IndexedEvent } from './event-log.js';
import { isIndexed } from './indexed-signatures.js';

export interface IndexerOptions {
  readonly connection: Connection;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly logger?: Logger;
  readonly index?: AuctionIndex;
  readonly chainClock?: ChainClock;
  readonly programId?: PublicKey;
  /** Catch-up interval when no websocket notification arrives; default 2000 ms. */
  readonly pollMs?: number;
  /** Lease TTL; a standby takes over at most this long after the leader dies. Default 10 000 ms. */
  readonly leaseTtlMs?: number;
  /** Listen to `logsSubscribe` for wake-ups; default true. */
  readonly websocket?: boolean;
  /** Called with the events appended to the log for the first time, after they are stored. */
  readonly onEvents?: (events: readonly IndexedEvent[]) => void;
}

export interface IndexerEvents {
  /** New events, stored in the index and the event log (each once, however passes are re-run). */
  events: [readonly IndexedEvent[]];
  /** This instance started (true) or stopped (false) being the active indexer. */
  leadership: [boolean];
}

/** Processed signatures kept in memory for `caughtUp` in this process. */
const LOCAL_MEMORY = 10_000;

export class Indexer extends EventEmitter<IndexerEvents> {
  readonly index: AuctionIndex;
  readonly eventLog: EventLog;
  private leader = false;
  private readonly stopping = new AbortController();
  private readonly running: Promise<void>;
  private readonly recent = new Set<string>();
  /** caughtUp calls pending per signature: each settles with no argument, or fails with a reason. */
  private readonly waiters = new Map<string, ((failure?: unknown) => void)[]>();
  private readonly waiterPoll: NodeJS.Timeout;
  private wake: () => void = () => undefined;

  constructor(private readonly options: IndexerOptions) {
    super();
    this.index = options.index ?? new AuctionIndex(options.redis, options.keys);
    this.eventLog = new EventLog(options.redis, options.keys);
    this.running = runWhileLeader(
      {
        redis: options.redis,
        keys: options.keys,
        name: 'indexer',
        ttlMs: options.leaseTtlMs ?? 10_000,
        signal: this.stopping.signal,
        onLeadershipChange: (leading) => {
          this.leader = leading;
          this.emit('leadership', leading);
        },
        onError: (err) => options.logger?.warn({ err }, 'indexer lease error'),
      },
      (signal) => this.lead(signal),
    );
    // A standby (or an API process) learns what the leader indexed from Redis.
    this.waiterPoll = setInterval(() => void this.checkWaitersInRedis(), this.pollMs);
  }

  get leading(): boolean {
    return this.leader;
  }

  /**
   * Resolves once `signature` is indexed (by this or another instance). Rejects when `signal`
   * aborts or the indexer stops first.
   */
  async caughtUp(signature: string, signal?: AbortSignal): Promise<void> {
    if (this.recent.has(signature)) return;
    if (await isIndexed(this.options.redis, this.options.keys, signature)) return;
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const settle = (failure?: unknown) => {
        signal?.removeEventListener('abort', abort);
        const rest = (this.waiters.get(signature) ?? []).filter((w) => w !== settle);
        if (rest.length > 0) this.waiters.set(signature, rest);
        else this.waiters.delete(signature);
        if (failure === undefined) resolve();
        else reject(failure);
      };
      const abort = () => settle(signal?.reason);
      signal?.addEventListener('abort', abort, { once: true });
      this.waiters.set(signature, [...(this.waiters.get(signature) ?? []), settle]);
      // The signature may have been indexed since the check above: look again, and wake a pass.
      this.wake();
      void this.checkWaitersInRedis();
    });
  }

  /** Stops indexing (after the step in progress) and gives the lease up. */
  async stop(): Promise<void> {
    clearInterval(this.waiterPoll);
    this.stopping.abort();
    await this.running;
    for (const waiting of [...this.waiters.values()])
      for (const settle of waiting) settle(new Error('the indexer stopped'));
  }

  private get pollMs(): number {
    return this.options.pollMs ?? 2_000;
  }

  private async lead(signal: AbortSignal): Promise<void> {
    const { connection, logger } = this.options;
    const programId = this.options.programId ?? AUCTION_PROGRAM;
    const chainClock = this.options.chainClock ?? new ChainClock(connection);
    const deps: CatchUpDeps = {
      ...this.options,
      chainClock,
      programId,
      index: this.index,
      eventLog: this.eventLog,
    };
    let passing: Promise<void> | null = null;
    let again = false;
    const pass = async () => {
      do {
        again = false;
        try {
          await catchUp(deps, signal, (progress) => this.progressed(progress));
          await this.refreshDutchPrices(chainClock, signal);
        } catch (err) {
          if (!signal.aborted) logger?.warn({ err }, 'indexer pass failed; retrying on the next wake-up');
        }
      } while (again && !signal.aborted);
    };
    this.wake = () => {
      if (signal.aborted) return;
      if (passing) again = true;
      else passing = pass().finally(() => (passing = null));
    };
    const subscription =
      this.options.websocket === false ? null : connection.onLogs(programId, () => this.wake(), 'confirmed');
    const poll = setInterval(() => this.wake(), this.pollMs);
    this.wake();
    if (!signal.aborted) await once(signal, 'abort');
    clearInterval(poll);
    this.wake = () => undefined;
    if (subscription !== null) await connection.removeOnLogsListener(subscription).catch(() => undefined);
    await passing;
  }

  /** Re-scores every live Dutch auction at the current chain time, in bounded steps. */
  private async refreshDutchPrices(chainClock: ChainClock, signal: AbortSignal): Promise<void> {
    const now = await chainClock.now();
    const step = 1_000;
    while (!signal.aborted && (await this.index.refreshDynamicPrices(now, step)) === step);
  }

  private progressed({ signatures, events }: Progress): void {
    for (const signature of signatures) {
      this.recent.add(signature);
      this.resolveWaiters(signature);
    }
    for (const signature of this.recent) {
      if (this.recent.size <= LOCAL_MEMORY) break;
      this.recent.delete(signature);
    }
    if (events.length === 0) return;
    // The events are stored; a failing listener must not fail the pass (it would not see them again).
    try {
      this.options.onEvents?.(events);
      this.emit('events', events);
    } catch (err) {
      this.options.logger?.error({ err }, 'an indexer events listener failed');
    }
  }

  private resolveWaiters(signature: string): void {
    for (const settle of this.waiters.get(signature) ?? []) settle();
    this.waiters.delete(signature);
  }

  private async checkWaitersInRedis(): Promise<void> {
    const signatures = [...this.waiters.keys()];
    if (signatures.length === 0) return;
    try {
      const scores = await this.options.redis.zmscore(this.options.keys.indexerRecent(), ...signatures);
      signatures.forEach((signature, i) => {
        if (scores[i] !== null) this.resolveWaiters(signature);
      });
    } catch (err) {
      this.options.logger?.warn({ err }, 'indexer could not read its progress');
    }
  }
}

/** Starts following the chain: see `Indexer`. */
export function startIndexer(options: IndexerOptions): Indexer {
  return new Indexer(options);
}
