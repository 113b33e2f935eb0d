/**
 * The chain client of the auction program: PDAs, account reads, instruction builders and events.
 * Transactions are built by transaction-builder.ts (unsigned, for wallets) or signed by the keeper.
 */
import type { Commitment, Connection, Finality, Logs, TransactionSignature } from '@solana/web3.js';
import { type LoggedEvent, parseAuctionEventsFromLogs } from '../core/program/event-logs.js';
import { AUCTION_PROGRAM_ID } from '../core/program/ids.js';
import { AUCTION_PROGRAM } from './auction-accounts.js';

export * from './auction-accounts.js';
export * from './auction-instructions.js';

/** The auction program's events in log lines (`getTransaction` meta or a `logsSubscribe` notification). */
export function auctionEventsFromLogs(logs: readonly string[]): LoggedEvent[] {
  return parseAuctionEventsFromLogs(logs, AUCTION_PROGRAM_ID);
}

export interface TransactionEvents {
  readonly signature: TransactionSignature;
  readonly slot: number;
  /** Block time, Unix seconds (chain time). */
  readonly blockTime: number | null;
  /** The transaction's error, when it failed (a failed transaction emits no events). */
  readonly err: unknown;
  readonly events: LoggedEvent[];
}

/** Events of a landed transaction, or null when the RPC node does not know it (yet). */
export async function fetchTransactionEvents(
  connection: Connection,
  signature: TransactionSignature,
  commitment: Finality = 'confirmed',
): Promise<TransactionEvents | null> {
  const tx = await connection.getTransaction(signature, { commitment, maxSupportedTransactionVersion: 0 });
  if (!tx) return null;
  const err = tx.meta?.err ?? null;
  return {
    signature,
    slot: tx.slot,
    blockTime: tx.blockTime ?? null,
    err,
    events: err ? [] : auctionEventsFromLogs(tx.meta?.logMessages ?? []),
  };
}

/**
 * Streams the program's events (`logsSubscribe` mentioning the program). Failed transactions are
 * skipped. Returns the unsubscribe function.
 */
export function subscribeAuctionEvents(
  connection: Connection,
  onEvents: (events: LoggedEvent[], logs: Logs, slot: number) => void,
  commitment: Commitment = 'confirmed',
): () => Promise<void> {
  const id = connection.onLogs(
    AUCTION_PROGRAM,
    (logs, context) => {
      if (logs.err) return;
      const events = auctionEventsFromLogs(logs.logs);
      if (events.length > 0) onEvents(events, logs, context.slot);
    },
    commitment,
  );
  return () => connection.removeOnLogsListener(id);
}
