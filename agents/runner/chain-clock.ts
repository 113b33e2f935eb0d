/**
 * Chain time as the runner estimates it from the API's `serverTime` (the chain Clock of the slot
 * the server read, whole seconds). Each answer gives a lower bound on the chain-minus-local offset
 * (the chain was at least `serverTime` when the answer arrived); the best bound over a recent window
 * is the estimate, so a warp or drift is picked up within one answer.
 */
export interface ChainClock {
  /** Chain time now, Unix ms. */
  chainNow(): number;
  /** The local (Date.now) instant at which the chain reaches `chainMs`. */
  toLocal(chainMs: number): number;
  observe(serverTimeMs: number, receivedAtLocalMs?: number): void;
}

export class OffsetChainClock implements ChainClock {
  #samples: { offset: number; at: number }[] = [];
  #last = 0;

  constructor(
    private readonly localNow: () => number = Date.now,
    private readonly windowMs = 30_000,
  ) {}

  observe(serverTimeMs: number, receivedAt = this.localNow()): void {
    this.#samples.push({ offset: serverTimeMs - receivedAt, at: receivedAt });
    const cutoff = receivedAt - this.windowMs;
    // Keep the window bounded; the newest sample always stays.
    while (this.#samples.length > 1 && (this.#samples[0]!.at < cutoff || this.#samples.length > 256)) {
      this.#samples.shift();
    }
    this.#last = Math.max(...this.#samples.map((s) => s.offset));
  }

  get offsetMs(): number {
    return this.#last;
  }

  chainNow(): number {
    return this.localNow() + this.#last;
  }

  toLocal(chainMs: number): number {
    return chainMs - this.#last;
  }
}

/** A clock that only moves when told to: backtests and unit tests. */
export class VirtualClock implements ChainClock {
  constructor(public now: number) {}
  chainNow(): number {
    return this.now;
  }
  toLocal(chainMs: number): number {
    return chainMs;
  }
  observe(): void {}
}
