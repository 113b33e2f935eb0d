import type { Address } from '../../core/address.js';
import type { InnerInstruction } from './invocation.js';
import type { TransactionErrorJson } from './transaction-error.js';

export interface TransactionRecord {
  readonly signature: string;
  /** Order of recording; newer is larger. */
  readonly seq: number;
  readonly slot: number;
  readonly blockTime: number;
  /** The transaction as received on the wire. */
  readonly raw: Uint8Array;
  readonly accountKeys: readonly Address[];
  readonly err: TransactionErrorJson | null;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly logs: readonly string[];
  readonly innerInstructions: readonly {
    readonly index: number;
    readonly instructions: readonly InnerInstruction[];
  }[];
  readonly unitsConsumed: number;
}

/** Landed transactions by signature, with a per-address index. Keeps the newest `capacity`. */
export class TransactionStore {
  private readonly bySignature = new Map<string, TransactionRecord>();
  private readonly byAddress = new Map<Address, TransactionRecord[]>();
  private nextSeq = 0;
  private evictedSinceSweep = 0;

  constructor(private readonly capacity = 100_000) {}

  get size(): number {
    return this.bySignature.size;
  }

  get(signature: string): TransactionRecord | undefined {
    return this.bySignature.get(signature);
  }

  /** Records a transaction; `seq` is assigned here. */
  add(record: Omit<TransactionRecord, 'seq'>): TransactionRecord {
    const stored: TransactionRecord = { ...record, seq: this.nextSeq++ };
    this.bySignature.set(stored.signature, stored);
    for (const key of stored.accountKeys) {
      const list = this.byAddress.get(key);
      if (list) list.push(stored);
      else this.byAddress.set(key, [stored]);
    }
    if (this.bySignature.size > this.capacity) this.evictOldest();
    return stored;
  }

  /** Newest first, like `getSignaturesForAddress`: strictly older than `before`, newer than `until`. */
  forAddress(
    address: Address,
    options: { before?: string; until?: string; limit: number },
  ): TransactionRecord[] {
    const list = this.byAddress.get(address) ?? [];
    let end = list.length;
    if (options.before !== undefined) {
      const before = this.bySignature.get(options.before);
      if (!before) return [];
      end = firstIndexWithSeqAtLeast(list, before.seq);
    }
    const untilSeq = options.until !== undefined ? (this.bySignature.get(options.until)?.seq ?? -1) : -1;
    const minSeq = this.minSeq();
    const out: TransactionRecord[] = [];
    for (let i = end - 1; i >= 0 && out.length < options.limit; i--) {
      const record = list[i] as TransactionRecord;
      if (record.seq <= untilSeq || record.seq < minSeq) break;
      out.push(record);
    }
    return out;
  }

  /** Oldest first. */
  values(): IterableIterator<TransactionRecord> {
    return this.bySignature.values();
  }

  private minSeq(): number {
    const oldest = this.bySignature.values().next();
    return oldest.done ? this.nextSeq : oldest.value.seq;
  }

  private evictOldest(): void {
    const oldest = this.bySignature.values().next();
    if (oldest.done) return;
    this.bySignature.delete(oldest.value.signature);
    // Address lists are trimmed in batches: evicted records are always a prefix of each list.
    if (++this.evictedSinceSweep < Math.max(1, Math.floor(this.capacity / 10))) return;
    this.evictedSinceSweep = 0;
    const minSeq = this.minSeq();
    for (const [address, list] of this.byAddress) {
      const keep = firstIndexWithSeqAtLeast(list, minSeq);
      if (keep === list.length) this.byAddress.delete(address);
      else if (keep > 0) list.splice(0, keep);
    }
  }
}

function firstIndexWithSeqAtLeast(list: readonly TransactionRecord[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as TransactionRecord).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
