import { createHash } from 'node:crypto';
import bs58 from 'bs58';

/** Agave's `MAX_PROCESSING_AGE`: a blockhash stays usable for 150 blocks. */
export const MAX_PROCESSING_AGE = 150;
const KEPT_SLOT_TIMES = 10_000;

export interface SlotClockState {
  readonly slot: number;
  readonly unixTimestamp: number;
  readonly warpOffsetSeconds: number;
  /** Oldest first; the last one is the latest blockhash. */
  readonly blockhashes: readonly { readonly blockhash: string; readonly height: number }[];
}

/**
 * Slots, block heights and blockhashes, and chain time. Every slot has a new blockhash (never
 * reused) and the last 150 stay valid. Chain time is wall time plus the warp offset, never going
 * backwards; it is fixed per slot like the Clock sysvar.
 */
export class SlotClock {
  private currentSlot: number;
  private timestamp: number;
  private warpOffset: number;
  private readonly hashes: { blockhash: string; height: number }[];
  private readonly heightByHash = new Map<string, number>();
  private readonly slotTimes = new Map<number, number>();

  constructor(
    state: SlotClockState,
    private readonly nowMs: () => number,
  ) {
    this.currentSlot = state.slot;
    this.timestamp = state.unixTimestamp;
    this.warpOffset = state.warpOffsetSeconds;
    this.hashes = [...state.blockhashes];
    for (const h of this.hashes) this.heightByHash.set(h.blockhash, h.height);
    this.slotTimes.set(this.currentSlot, this.timestamp);
  }

  static genesis(genesisHash: string, nowMs: () => number): SlotClock {
    const unixTimestamp = Math.floor(nowMs() / 1000);
    const blockhash = nextBlockhash(genesisHash, 0);
    return new SlotClock(
      { slot: 0, unixTimestamp, warpOffsetSeconds: 0, blockhashes: [{ blockhash, height: 0 }] },
      nowMs,
    );
  }

  get slot(): number {
    return this.currentSlot;
  }

  /** No slot is ever skipped, so the block height is the slot. */
  get blockHeight(): number {
    return this.currentSlot;
  }

  get unixTimestamp(): number {
    return this.timestamp;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const latest = this.hashes[this.hashes.length - 1] as { blockhash: string; height: number };
    return { blockhash: latest.blockhash, lastValidBlockHeight: latest.height + MAX_PROCESSING_AGE };
  }

  isBlockhashValid(blockhash: string): boolean {
    const height = this.heightByHash.get(blockhash);
    return height !== undefined && this.blockHeight - height <= MAX_PROCESSING_AGE;
  }

  /** Moves to the next slot; returns the blockhashes that just expired. */
  advance(): string[] {
    const previous = this.latestBlockhash().blockhash;
    this.currentSlot += 1;
    this.timestamp = Math.max(this.timestamp, Math.floor(this.nowMs() / 1000) + this.warpOffset);
    const blockhash = nextBlockhash(previous, this.currentSlot);
    this.hashes.push({ blockhash, height: this.currentSlot });
    this.heightByHash.set(blockhash, this.currentSlot);
    this.slotTimes.set(this.currentSlot, this.timestamp);
    this.slotTimes.delete(this.currentSlot - KEPT_SLOT_TIMES);
    const expired: string[] = [];
    while (this.hashes.length > MAX_PROCESSING_AGE + 1) {
      const old = this.hashes.shift() as { blockhash: string };
      this.heightByHash.delete(old.blockhash);
      expired.push(old.blockhash);
    }
    return expired;
  }

  /** Moves chain time forward by `seconds`; the next slot carries the new time. */
  warp(seconds: number): void {
    this.warpOffset += seconds;
  }

  blockTime(slot: number): number | undefined {
    return this.slotTimes.get(slot);
  }

  state(): SlotClockState {
    return {
      slot: this.currentSlot,
      unixTimestamp: this.timestamp,
      warpOffsetSeconds: this.warpOffset,
      blockhashes: this.hashes.map((h) => ({ ...h })),
    };
  }
}

function nextBlockhash(previous: string, slot: number): string {
  return bs58.encode(createHash('sha256').update(previous).update(`slot:${slot}`).digest());
}
