/**
 * Prepared (unsigned) transactions by id. `tx_submit` signs exactly these bytes, so the agent
 * cannot smuggle in a different transaction and nothing is recompiled. Entries live until their
 * blockhash expires (the transaction could never land after that) and the store is bounded.
 */
import { randomUUID } from 'node:crypto';
import type { TransactionSummary } from './summarize.js';

export type PreparedKind = 'auction_create' | 'bid_place' | 'auction_cancel';

export interface PreparedTransaction {
  readonly id: string;
  readonly kind: PreparedKind;
  /** The wire bytes the API returned, unsigned. */
  readonly bytes: Uint8Array;
  readonly auctionId: string;
  /** What the agent asked to spend: the bid amount (0 for create and cancel). */
  readonly declaredLamports: bigint;
  readonly blockhash: string;
  readonly lastValidBlockHeight: number;
  /** Unix ms (the API's estimate of the blockhash expiry). */
  readonly expiresAt: number;
  readonly summary: TransactionSummary;
}

const MAX_ENTRIES = 200;

export class PreparedStore {
  readonly #entries = new Map<string, PreparedTransaction>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  put(entry: Omit<PreparedTransaction, 'id'>): PreparedTransaction {
    this.#prune();
    const prepared = { ...entry, id: `prep_${randomUUID().replaceAll('-', '').slice(0, 20)}` };
    this.#entries.set(prepared.id, prepared);
    while (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return prepared;
  }

  get(id: string): PreparedTransaction | undefined {
    this.#prune();
    return this.#entries.get(id);
  }

  /** Removes the entry so the same preparedId cannot be signed twice. */
  take(id: string): PreparedTransaction | undefined {
    const entry = this.get(id);
    this.#entries.delete(id);
    return entry;
  }

  #prune(): void {
    const now = this.nowMs();
    for (const [id, entry] of this.#entries) if (entry.expiresAt < now) this.#entries.delete(id);
  }
}
