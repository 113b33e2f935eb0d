/**
 * The durable log of every auction program event: a Redis Stream, each event appended exactly once
 * (its id is derived from the transaction signature and the event's position), however often the
 * indexer re-runs a pass or rebuilds the index. Consumers (webhooks) read it with XREAD/XREADGROUP.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { Redis } from 'ioredis';
import type { AuctionEvent, AuctionEventName } from '../core/program/events.js';
import type { RedisKeys } from '../redis/keys.js';
import { LuaScript } from '../redis/lua-script.js';

/** An event as the indexer found it in a confirmed transaction. */
export interface IndexedEvent {
  /** `evt_` + a stable id of (signature, index). */
  readonly id: string;
  readonly signature: string;
  readonly slot: number;
  /** Chain Unix seconds of the block, when the RPC knows it. */
  readonly blockTime: number | null;
  /** Position among the program's events in the transaction. */
  readonly index: number;
  readonly event: AuctionEvent;
}

/** A stream entry: the event's data as JSON (amounts and times as decimal strings). */
export interface EventLogEntry {
  /** The stream entry id (`<ms>-<seq>`), for reading on from it. */
  readonly streamId: string;
  readonly id: string;
  readonly name: AuctionEventName;
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number | null;
  readonly index: number;
  readonly data: Record<string, unknown>;
}

export function eventId(signature: string, index: number): string {
  const digest = createHash('sha256').update(`${signature}:${index}`).digest();
  return `evt_${bs58.encode(digest.subarray(0, 16))}`;
}

export const eventDataJson = (data: object): string =>
  JSON.stringify(data, (_, v) => (typeof v === 'bigint' ? v.toString() : v));

// Claiming the id and appending happen in one script, so a crash cannot leave one without the other.
const APPEND_SCRIPT = new LuaScript(`
if redis.call('HSETNX', KEYS[2], ARGV[1], '') == 0 then return false end
local streamId = redis.call('XADD', KEYS[1], '*', 'id', ARGV[1], unpack(ARGV, 2))
redis.call('HSET', KEYS[2], ARGV[1], streamId)
return streamId`);

export class EventLog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Appends the events not yet in the log, in order; returns those that were new. */
  async append(events: readonly IndexedEvent[]): Promise<IndexedEvent[]> {
    if (events.length === 0) return [];
    await APPEND_SCRIPT.load(this.redis);
    const pipeline = this.redis.pipeline();
    for (const e of events) {
      APPEND_SCRIPT.queue(
        pipeline,
        [this.keys.eventLog(), this.keys.eventLogIds()],
        [
          e.id,
          ...['name', e.event.name, 'signature', e.signature, 'slot', String(e.slot)],
          ...['blockTime', e.blockTime === null ? '' : String(e.blockTime), 'index', String(e.index)],
          ...['data', eventDataJson(e.event.data)],
        ],
      );
    }
    const results = (await pipeline.exec()) ?? [];
    return events.filter((_, i) => {
      const [error, streamId] = results[i] ?? [new Error('no reply')];
      if (error) throw error;
      return streamId !== null;
    });
  }

  /** Entries after stream id `after` (default: from the start), oldest first. */
  async read(options: { after?: string; count?: number } = {}): Promise<EventLogEntry[]> {
    const start = options.after ? `(${options.after}` : '-';
    const rows = await this.redis.xrange(this.keys.eventLog(), start, '+', 'COUNT', options.count ?? 1_000);
    return rows.map(([streamId, fields]) => eventLogEntry(streamId, fields));
  }

  length(): Promise<number> {
    return this.redis.xlen(this.keys.eventLog());
  }
}

/** One stream entry (XRANGE / XREADGROUP row) as an EventLogEntry: shared by every consumer. */
export function eventLogEntry(streamId: string, fields: readonly string[]): EventLogEntry {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  return {
    streamId,
    id: f['id']!,
    name: f['name'] as AuctionEventName,
    signature: f['signature']!,
    slot: Number(f['slot']),
    blockTime: f['blockTime'] ? Number(f['blockTime']) : null,
    index: Number(f['index']),
    data: JSON.parse(f['data']!) as Record<string, unknown>,
  };
}
