/**
 * One catch-up pass of the indexer: every program transaction after the stored cursor, oldest
 * first, into the index, the bid history and the event log; then the cursor advances. Every write
 * is idempotent (slot-guarded upserts, bids and events keyed by signature and event index), so a
 * pass cut short, re-run, or run by two instances for a moment leaves the same result.
 */
import { type Connection, PublicKey } from '@solana/web3.js';
import type { Redis } from 'ioredis';
import type { ChainClock } from '../chain/chain-clock.js';
import {
  JsonRpcTransactions,
  type SignatureInfo,
  type TransactionLogs,
} from '../chain/json-rpc-transactions.js';
import type { Address } from '../core/address.js';
import {
  type AuctionAccount,
  decodeAuctionAccount,
  isAuctionAccountData,
} from '../core/program/auction-account.js';
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
  /**
   * Transactions fetched (and accounts refreshed) per step; default 500. A step refreshes each
   * auction it touches once, so larger steps write the index less per event in a busy market.
   */
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
  const reader = new JsonRpcTransactions(deps.connection.rpcEndpoint);
  const pending = (await newSignatures(deps, reader, cursor, signal)).reverse();
  const chunkSize = deps.chunkSize ?? 500;
  // The next step's chain reads (transactions, then accounts) run while this step is stored; the
  // reads stay in order, and the index's upserts are slot-guarded anyway.
  const readAhead = (from: number) => {
    const infos = pending.slice(from, from + chunkSize);
    const read = readStep(deps, reader, infos);
    read.catch(() => undefined); // awaited below, unless the pass stops before
    return { infos, read };
  };
  let next = pending.length > 0 ? readAhead(0) : null;
  for (let i = 0; next && !signal.aborted; i += chunkSize) {
    const { infos, read } = next;
    const step = await read;
    next = i + chunkSize < pending.length ? readAhead(i + chunkSize) : null;
    const done = await storeStep(deps, step);
    if (done.signatures.length > 0) onProgress(done);
    // A transaction the RPC cannot serve yet: stop here, the next pass starts from it.
    if (done.signatures.length < infos.length) return;
  }
}

/** Signatures after `cursor`, newest first (the RPC's order), paging back through history. */
async function newSignatures(
  deps: CatchUpDeps,
  reader: JsonRpcTransactions,
  cursor: string | null,
  signal: AbortSignal,
): Promise<SignatureInfo[]> {
  const all: SignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    signal.throwIfAborted();
    const page = await reader.getSignaturesForAddress(deps.programId.toBase58(), {
      limit: PAGE,
      ...(cursor ? { until: cursor } : {}),
      ...(before ? { before } : {}),
    });
    all.push(...page);
    if (page.length < PAGE) return all;
    before = page[page.length - 1]!.signature;
  }
}

/**
 * The successful transactions among `infos`, by signature. Only slot, block time, error and logs
 * are read: the lean reader skips web3.js's validation of every other field (about half of a
 * catch-up's CPU, measured by bench:events).
 */
async function fetchTransactions(
  reader: JsonRpcTransactions,
  infos: readonly SignatureInfo[],
): Promise<Map<string, TransactionLogs>> {
  const succeeded = infos.filter((s) => s.err === null).map((s) => s.signature);
  const fetched = await reader.getTransactionLogs(succeeded);
  const transactions = new Map<string, TransactionLogs>();
  succeeded.forEach((signature, i) => {
    const tx = fetched[i];
    if (tx) transactions.set(signature, tx);
  });
  return transactions;
}

/** What one step read from the chain: the transactions done, their events, their auctions now. */
interface ReadStep {
  readonly done: readonly SignatureInfo[];
  readonly events: readonly IndexedEvent[];
  readonly auctions: readonly AuctionRead[];
}

interface AuctionRead {
  readonly address: Address;
  readonly account: AuctionAccount;
  readonly slot: number;
  readonly chainNow: bigint;
}

async function readStep(
  deps: CatchUpDeps,
  reader: JsonRpcTransactions,
  infos: readonly SignatureInfo[],
): Promise<ReadStep> {
  const transactions = await fetchTransactions(reader, infos);
  const missing = infos.findIndex((s) => s.err === null && !transactions.has(s.signature));
  const done = missing < 0 ? infos : infos.slice(0, missing);

  const events: IndexedEvent[] = [];
  for (const info of done) {
    const tx = transactions.get(info.signature);
    if (!tx || tx.err) continue;
    for (const { event, index } of parseAuctionEventsFromLogs(tx.logMessages, deps.programId.toBase58()))
      events.push({
        id: eventId(info.signature, index),
        signature: info.signature,
        slot: tx.slot,
        blockTime: tx.blockTime,
        index,
        event,
      });
  }
  const auctions = await readAuctions(deps, [...new Set(events.map((e) => e.event.data.auction))]);
  return { done, events, auctions };
}

async function storeStep(deps: CatchUpDeps, { done, events, auctions }: ReadStep): Promise<Progress> {
  if (done.length === 0) return { signatures: [], events: [] };
  // One script per auction, each atomic and about a different auction: sent together.
  await Promise.all(
    auctions.map((a) => deps.index.upsertFromAccount(a.address, a.account, a.slot, { chainNow: a.chainNow })),
  );
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

/** Reads the auctions' current accounts with the Clock, one call (one slot) per 99 auctions. */
async function readAuctions(deps: CatchUpDeps, auctions: readonly Address[]): Promise<AuctionRead[]> {
  const batches: Address[][] = [];
  for (let i = 0; i < auctions.length; i += MAX_ACCOUNTS_PER_READ)
    batches.push(auctions.slice(i, i + MAX_ACCOUNTS_PER_READ));
  const reads = await Promise.all(
    batches.map(async (batch) => {
      const { accounts, clock } = await deps.chainClock.readWithClock(batch.map((a) => new PublicKey(a)));
      return accounts.flatMap((info, j): AuctionRead[] =>
        !info?.owner.equals(deps.programId) || !isAuctionAccountData(info.data)
          ? []
          : [
              {
                address: batch[j]!,
                account: decodeAuctionAccount(info.data),
                slot: Number(clock.slot),
                chainNow: clock.unixTimestamp,
              },
            ],
      );
    }),
  );
  return reads.flat();
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
  await Promise.all([...byAuction].map(([auction, bids]) => index.appendBids(auction, bids)));
}
