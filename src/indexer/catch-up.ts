/**
 * One catch-up pass of the indexer: every program transaction after the stored cursor, oldest
 * first, into the index, the bid history and the event log; then the cursor advances. Every write
 * is idempotent (slot-guarded upserts, bids and events keyed by signature and event index), so a
 * pass cut short, re-run, or run by two instances for a moment leaves the same result.
 */
import {
  type ConfirmedSignatureInfo,
  type Connection,
  PublicKey,
  type VersionedTransactionResponse,
} from '@solana/web3.js';
import type { Redis } from 'ioredis';
import type { ChainClock } from '../chain/chain-clock.js';
import type { Address } from '../core/address.js';
import { decodeAuctionAccount, isAuctionAccountData } from '../core/program/auction-account.js';
import { parseAuctionEventsFromLogs } from '../core/program/event-logs.js';
import type { RedisKeys } from '../redis/keys.js';
import type { AuctionIndex, IndexedBid } from './auction-index.js';
import { type EventLog, eventId, type IndexedEvent } from './event-log.js';

export interface CatchUpDeps {
  readonly connection: Connection;
  readonly chainClock: ChainClock;
  readonly programId: PublicKey;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly index: AuctionIndex;
  readonly eventLog: EventLog;
  /** Transactions fetched (and accounts refreshed) per step; default 100. */
  readonly chunkSize?: number;
}

export interface Progress {
  /** Signatures indexed in this step (failed transactions included: they are done too). */
  readonly signatures: readonly string[];
  /** Events appended to the log for the first time. */
  readonly events: readonly IndexedEvent[];
}

const PAGE = 1_000;
/** How many processed signatures stay findable for `caughtUp` in other processes. */
const RECENT_SIGNATURES = 10_000;
const MAX_ACCOUNTS_PER_READ = 99; // getMultipleAccounts takes 100 keys; one is the Clock

/** Runs one pass; `onProgress` is told after each step is stored. Stops between steps on `signal`. */
export async function catchUp(
  deps: CatchUpDeps,
  signal: AbortSignal,
  onProgress: (progress: Progress) => void,
): Promise<void> {
  const cursor = await deps.redis.hget(deps.keys.indexerState(), 'signature');
  const pending = (await newSignatures(deps, cursor, signal)).reverse();
  const chunkSize = deps.chunkSize ?? 100;
  for (let i = 0; i < pending.length && !signal.aborted; i += chunkSize) {
    const done = await indexStep(deps, pending.slice(i, i + chunkSize));
    if (done.signatures.length > 0) onProgress(done);
    // A transaction the RPC cannot serve yet: stop here, the next pass starts from it.
    if (done.signatures.length < Math.min(chunkSize, pending.length - i)) return;
  }
}

/** Signatures after `cursor`, newest first (the RPC's order), paging back through history. */
async function newSignatures(
  deps: CatchUpDeps,
  cursor: string | null,
  signal: AbortSignal,
): Promise<ConfirmedSignatureInfo[]> {
  const all: ConfirmedSignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    signal.throwIfAborted();
    const page = await deps.connection.getSignaturesForAddress(
      deps.programId,
      { limit: PAGE, ...(cursor ? { until: cursor } : {}), ...(before ? { before } : {}) },
      'confirmed',
    );
    all.push(...page);
    if (page.length < PAGE) return all;
    before = page[page.length - 1]!.signature;
  }
}

async function indexStep(deps: CatchUpDeps, infos: readonly ConfirmedSignatureInfo[]): Promise<Progress> {
  const succeeded = infos.filter((s) => s.err === null).map((s) => s.signature);
  const fetched = await deps.connection.getTransactions(succeeded, {
    commitment: 'confirmed',
    maxSupportedTransactionVersion: 0,
  });
  const transactions = new Map<string, VersionedTransactionResponse>();
  succeeded.forEach((signature, i) => {
    const tx = fetched[i];
    if (tx) transactions.set(signature, tx);
  });
  const missing = infos.findIndex((s) => s.err === null && !transactions.has(s.signature));
  const done = missing < 0 ? infos : infos.slice(0, missing);
  if (done.length === 0) return { signatures: [], events: [] };

  const events: IndexedEvent[] = [];
  for (const info of done) {
    const tx = transactions.get(info.signature);
    if (!tx || tx.meta?.err) continue;
    for (const { event, index } of parseAuctionEventsFromLogs(
      tx.meta?.logMessages ?? [],
      deps.programId.toBase58(),
    ))
      events.push({
        id: eventId(info.signature, index),
        signature: info.signature,
        slot: tx.slot,
        blockTime: tx.blockTime ?? null,
        index,
        event,
      });
  }
  await refreshAuctions(deps, [...new Set(events.map((e) => e.event.data.auction))]);
  await recordBids(deps.index, events);
  const fresh = await deps.eventLog.append(events);

  const last = done[done.length - 1]!;
  const recent = done.flatMap((s) => [String(s.slot), s.signature]);
  await deps.redis
    .multi()
    .hset(deps.keys.indexerState(), { signature: last.signature, slot: String(last.slot) })
    .zadd(deps.keys.indexerRecent(), ...recent)
    .zremrangebyrank(deps.keys.indexerRecent(), 0, -RECENT_SIGNATURES - 1)
    .exec();
  return { signatures: done.map((s) => s.signature), events: fresh };
}

/** Reads the auctions' current accounts with the Clock in one call (one slot) and stores them. */
async function refreshAuctions(deps: CatchUpDeps, auctions: readonly Address[]): Promise<void> {
  for (let i = 0; i < auctions.length; i += MAX_ACCOUNTS_PER_READ) {
    const batch = auctions.slice(i, i + MAX_ACCOUNTS_PER_READ);
    const { accounts, clock } = await deps.chainClock.readWithClock(batch.map((a) => new PublicKey(a)));
    for (const [j, info] of accounts.entries()) {
      if (!info?.owner.equals(deps.programId) || !isAuctionAccountData(info.data)) continue;
      await deps.index.upsertFromAccount(batch[j]!, decodeAuctionAccount(info.data), Number(clock.slot), {
        chainNow: clock.unixTimestamp,
      });
    }
  }
}

async function recordBids(index: AuctionIndex, events: readonly IndexedEvent[]): Promise<void> {
  const byAuction = new Map<Address, IndexedBid[]>();
  for (const { event, signature, index: eventIndex } of events) {
    if (event.name !== 'BidPlaced') continue;
    const bid = event.data;
    const bids = byAuction.get(bid.auction) ?? [];
    bids.push({
      bidder: bid.bidder,
      amount: bid.amount,
      timestamp: Number(bid.timestamp) * 1000,
      transactionId: signature,
      eventIndex,
      sequence: bid.bidCount,
    });
    byAuction.set(bid.auction, bids);
  }
  for (const [auction, bids] of byAuction) await index.appendBids(auction, bids);
}
