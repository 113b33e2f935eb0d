/**
 * Keeps the analytics aggregates up to date from the event log: a Redis consumer group read in
 * stream order by the one active instance (lease "analytics"), each event applied and the
 * applied-through stream id advanced in one script, then acknowledged. A re-delivered or replayed
 * event (at or below that id) changes nothing.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type EventLogEntry, eventLogEntry } from '../indexer/event-log.js';
import type { RedisKeys } from '../redis/keys.js';
import { runWhileLeader } from '../redis/lease.js';
import { LuaScript } from '../redis/lua-script.js';
import { type AnalyticsKeys, analyticsKeys } from './analytics-keys.js';
import { type AuctionFacts, effectsOf, factsFromCreated } from './event-effects.js';

export const ANALYTICS_GROUP = 'analytics';
const CONSUMER = 'analytics';
const BATCH = 200;

// KEYS[1]: the applied-through marker. ARGV: the entry's stream id, then per command its length
// and its words. Stream ids ("<ms>-<seq>") are compared as numbers; ms fits a double exactly.
const APPLY_SCRIPT = new LuaScript(`
local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local through = redis.call('GET', KEYS[1])
if through then
  local ms, seq = parse(ARGV[1])
  local tms, tseq = parse(through)
  if ms < tms or (ms == tms and seq <= tseq) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
local i = 2
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
return 1`);

export interface AnalyticsConsumerOptions {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly logger?: Logger;
  /** How long one XREADGROUP waits for new entries; default 1000 ms. */
  readonly blockMs?: number;
  readonly leaseTtlMs?: number;
}

export class AnalyticsConsumer extends EventEmitter<{ progress: [] }> {
  private readonly k: AnalyticsKeys;
  private readonly stopping = new AbortController();
  private readonly running: Promise<void>;

  constructor(private readonly options: AnalyticsConsumerOptions) {
    super();
    this.k = analyticsKeys(options.keys);
    this.running = runWhileLeader(
      {
        redis: options.redis,
        keys: options.keys,
        name: 'analytics',
        ttlMs: options.leaseTtlMs ?? 10_000,
        signal: this.stopping.signal,
        onError: (err) => options.logger?.warn({ err }, 'analytics lease error'),
      },
      (signal) => this.consume(signal),
    );
  }

  /**
   * Resolves once every entry now in the log has been applied and acknowledged. It waits on this
   * instance's progress, so it is for the leading instance (tests, the worker).
   */
  async caughtUp(signal?: AbortSignal): Promise<void> {
    while (!(await this.isCaughtUp())) {
      signal?.throwIfAborted();
      if (this.stopping.signal.aborted) throw new Error('the analytics consumer stopped');
      await new Promise<void>((resolve) => this.once('progress', resolve));
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.emit('progress');
    await this.running;
  }

  private async isCaughtUp(): Promise<boolean> {
    const { redis, keys } = this.options;
    const [last] = await redis.xrevrange(keys.eventLog(), '+', '-', 'COUNT', 1);
    if (!last) return true;
    const groups = (await redis.xinfo('GROUPS', keys.eventLog()).catch(() => [])) as unknown[][];
    for (const group of groups) {
      const info: Record<string, unknown> = {};
      for (let i = 0; i + 1 < group.length; i += 2) info[String(group[i])] = group[i + 1];
      if (info['name'] === ANALYTICS_GROUP)
        return info['last-delivered-id'] === last[0] && Number(info['pending']) === 0;
    }
    return false;
  }

  private async consume(signal: AbortSignal): Promise<void> {
    const { redis, keys, logger } = this.options;
    await redis.xgroup('CREATE', keys.eventLog(), ANALYTICS_GROUP, '0', 'MKSTREAM').catch((err: Error) => {
      if (!err.message.includes('BUSYGROUP')) throw err;
    });
    // A blocking read holds its connection: it gets one of its own, closed to stop at once.
    const reader = redis.duplicate();
    await reader.connect();
    const abort = () => reader.disconnect();
    signal.addEventListener('abort', abort, { once: true });
    // Entries delivered before a crash and not acknowledged come first ("0"), then new ones.
    let from = '0';
    try {
      while (!signal.aborted) {
        try {
          const entries = await this.read(reader, from);
          if (from === '0' && entries.length === 0) from = '>';
          for (const entry of entries) {
            if (signal.aborted) break;
            await this.apply(entry);
            await redis.xack(keys.eventLog(), ANALYTICS_GROUP, entry.streamId);
          }
        } catch (err) {
          if (signal.aborted) break;
          from = '0';
          logger?.warn({ err }, 'analytics consumer step failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        this.emit('progress');
      }
    } finally {
      signal.removeEventListener('abort', abort);
      reader.disconnect();
    }
  }

  private async read(reader: Redis, from: string): Promise<EventLogEntry[]> {
    const { keys } = this.options;
    const group = ['GROUP', ANALYTICS_GROUP, CONSUMER, 'COUNT', BATCH] as const;
    const streams = ['STREAMS', keys.eventLog(), from] as const;
    type Reply = [string, [string, string[]][]][] | null;
    const reply = (
      from === '>'
        ? await reader.xreadgroup(...group, 'BLOCK', this.options.blockMs ?? 1_000, ...streams)
        : await reader.xreadgroup(...group, ...streams)
    ) as Reply;
    const rows = reply?.[0]?.[1] ?? [];
    return rows.map(([streamId, fields]) => eventLogEntry(streamId, fields));
  }

  private async apply(entry: EventLogEntry): Promise<void> {
    const facts =
      entry.name === 'AuctionCreated'
        ? factsFromCreated(entry.data)
        : await this.storedFacts(String(entry.data['auction']));
    const commands = facts ? effectsOf(entry, facts, this.k) : [];
    const args = commands.flatMap((c) => [c.length, ...c]);
    await APPLY_SCRIPT.run(this.options.redis, [this.k.appliedThrough()], [entry.streamId, ...args]);
  }

  private async storedFacts(auctionId: string): Promise<AuctionFacts | null> {
    const h = await this.options.redis.hgetall(this.k.auction(auctionId));
    if (!h['seller']) return null;
    return {
      seller: h['seller'],
      type: h['type'] ?? '',
      domains: JSON.parse(h['domains'] ?? '[]') as string[],
      collection: h['collection'] ?? null,
    };
  }
}

export function startAnalyticsConsumer(options: AnalyticsConsumerOptions): AnalyticsConsumer {
  return new AnalyticsConsumer(options);
}
