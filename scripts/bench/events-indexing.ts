/**
 * bench:events, part 3: indexer throughput. Bids are landed in waves (every auction outbid once
 * per wave, pre-signed, 64 in flight with preflight, as bench:localnet sends them); then an
 * indexer with an empty key space catches up on the program's whole history (the same code the
 * worker runs: src/indexer/), timed until it has indexed the last signature. The baseline is the
 * raw fetch of the same history through the same RPC calls (getSignaturesForAddress pages of
 * 1,000, then getTransaction batches of 100, one after the other), with nothing done with the
 * transactions: through the indexer's own lean reader (its I/O floor) and through web3.js.
 */
import type { Connection } from '@solana/web3.js';
import { AUCTION_PROGRAM } from '../../src/chain/auction-accounts.js';
import { JsonRpcTransactions } from '../../src/chain/json-rpc-transactions.js';
import type { Deps } from '../../src/composition.js';
import { startIndexer } from '../../src/indexer/indexer.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { type Market, nextBid } from './events-market.js';
import { mapConcurrent, progress } from './measure.js';

const CONCURRENCY = 64;
const round2 = (n: number) => Math.round(n * 100) / 100;

export async function landBids(market: Market, count: number) {
  const { connection } = market;
  const waves = Math.ceil(count / market.auctions.length);
  let failures = 0;
  let lastSignature = '';
  let bids = 0;
  let seconds = 0;
  for (let wave = 0; wave < waves; wave++) {
    const { blockhash } = await connection.getLatestBlockhash();
    const size = Math.min(market.auctions.length, count - bids);
    const raws = Array.from({ length: size }, (_, i) => nextBid(market, i, blockhash));
    const started = performance.now();
    const signatures = await mapConcurrent(raws, CONCURRENCY, async (raw) => {
      try {
        return await connection.sendRawTransaction(raw, { skipPreflight: false, maxRetries: 0 });
      } catch (error) {
        if (failures++ === 0) progress(`bid failed: ${String(error).slice(0, 300)}`);
        return null;
      }
    });
    seconds += (performance.now() - started) / 1_000;
    bids += size;
    lastSignature = signatures.filter((s) => s !== null).at(-1) ?? lastSignature;
    if ((wave + 1) % 10 === 0) progress(`landed ${bids} / ${count} bids`);
  }
  // Sent 64 at a time, so the newest program transaction is asked of the RPC (the indexer's order).
  const [newest] = await connection.getSignaturesForAddress(AUCTION_PROGRAM, { limit: 1 }, 'confirmed');
  if (!newest || lastSignature === '') throw new Error('no bid landed');
  return {
    bids,
    failures,
    perSecond: Math.round((bids - failures) / seconds),
    newestSignature: newest.signature,
  };
}

/**
 * The RPC work of a full catch-up and nothing else, through web3.js's `getTransactions` (what the
 * indexer used before) or the lean reader the indexer uses now.
 */
export async function rawFetch(connection: Connection, client: 'web3' | 'lean') {
  const lean = new JsonRpcTransactions(connection.rpcEndpoint);
  const started = performance.now();
  const signatures: string[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await connection.getSignaturesForAddress(
      AUCTION_PROGRAM,
      { limit: 1_000, ...(before ? { before } : {}) },
      'confirmed',
    );
    signatures.push(...page.filter((s) => s.err === null).map((s) => s.signature));
    if (page.length < 1_000) break;
    before = page[page.length - 1]!.signature;
  }
  signatures.reverse();
  let transactions = 0;
  for (let i = 0; i < signatures.length; i += 100) {
    const chunk = signatures.slice(i, i + 100);
    const fetched =
      client === 'lean'
        ? await lean.getTransactionLogs(chunk)
        : await connection.getTransactions(chunk, {
            commitment: 'confirmed',
            maxSupportedTransactionVersion: 0,
          });
    transactions += fetched.filter((t) => t !== null).length;
  }
  const seconds = round2((performance.now() - started) / 1_000);
  return { client, transactions, seconds, transactionsPerSecond: Math.round(transactions / seconds) };
}

/**
 * A fresh indexer (its own key prefix: empty index, cursor and event log) catching up from the
 * first program transaction to `lastSignature`, in this process.
 */
export async function indexFromScratch(deps: Deps, lastSignature: string) {
  const keys = createRedisKeys(`bench-reindex-${Date.now()}:`);
  const started = performance.now();
  const indexer = startIndexer({
    connection: deps.connection,
    redis: deps.redis,
    keys,
    websocket: false,
    pollMs: 3_600_000,
  });
  try {
    await indexer.caughtUp(lastSignature);
  } finally {
    await indexer.stop();
  }
  const seconds = round2((performance.now() - started) / 1_000);
  const events = await deps.redis.xlen(keys.eventLog());
  return { events, seconds, eventsPerSecond: Math.round(events / seconds) };
}
