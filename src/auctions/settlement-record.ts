/** The settlement of an auction already settled on chain, and how the API shows one. */
import { type Connection, PublicKey } from '@solana/web3.js';
import { type AuctionWithAddress, fetchTransactionEvents } from '../chain/auction-client.js';
import { AppError } from '../core/errors.js';
import { lamportsToSol } from '../core/money.js';
import type { SettlementRecord } from '../redis/settlement-store.js';
import { chainMs } from './auction-view.js';

/** How far back in the auction's history the settling transaction is looked for (failed sends included). */
const HISTORY_LIMIT = 50;

export interface SettlementView {
  readonly auctionId: string;
  readonly status: 'ended';
  readonly settled: true;
  readonly winner: string | null;
  /** SOL; null when nothing was sold. */
  readonly finalPrice: number | null;
  readonly reserveMet: boolean | null;
  readonly transactionId: string;
  /** Unix ms. */
  readonly settledAt: number;
  /** True when the auction was already settled before this call (by another call, the keeper or a bid). */
  readonly alreadySettled: boolean;
}

export function settlementView(r: SettlementRecord, alreadySettled: boolean): SettlementView {
  return {
    auctionId: r.auctionId,
    status: 'ended',
    settled: true,
    winner: r.winner,
    finalPrice: r.finalPrice === null ? null : lamportsToSol(r.finalPrice),
    reserveMet: r.reserveMet,
    transactionId: r.transactionId,
    settledAt: r.settledAt,
    alreadySettled,
  };
}

/** The record of a settled account; `transactionId` is the transaction that settled it. */
export function recordFromAccount(a: AuctionWithAddress, transactionId: string): SettlementRecord {
  return {
    auctionId: a.address,
    winner: a.winner,
    finalPrice: a.winner === null ? null : a.finalPrice,
    reserveMet: a.reserveCommitment === null ? null : a.reserveOutcome === 'met',
    transactionId,
    settledAt: chainMs(a.settledAt),
  };
}

/**
 * The signature of the transaction whose AuctionSettled event closed `auctionId`: the settle call,
 * or the dutch/buy_now bid that sold it. Newest first: nothing succeeds on an auction after that.
 */
export async function findSettlingTransaction(connection: Connection, auctionId: string): Promise<string> {
  const history = await connection.getSignaturesForAddress(
    new PublicKey(auctionId),
    { limit: HISTORY_LIMIT },
    'confirmed',
  );
  for (const entry of history) {
    if (entry.err) continue;
    const tx = await fetchTransactionEvents(connection, entry.signature);
    const settled = tx?.events.some(
      (e) => e.event.name === 'AuctionSettled' && e.event.data.auction === auctionId,
    );
    if (settled) return entry.signature;
  }
  throw new AppError(
    'INTERNAL_ERROR',
    `the transaction that settled auction ${auctionId} was not found in its history`,
  );
}
