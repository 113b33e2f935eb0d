/**
 * The latest blockhash, shared by the transactions built within a short time: a blockhash is
 * valid for 150 blocks (~60 s), so one fetched a second ago serves a wallet as well as a new one,
 * and every bid no longer pays an RPC round trip for it. Never older than `maxAgeMs` (counted
 * from when its fetch started): past `refreshAfterMs` the next caller still gets it but a
 * refresh starts in the background; past `maxAgeMs` callers wait for a fresh one (one fetch
 * in flight at a time, whoever asks).
 */
export interface LatestBlockhash {
  readonly blockhash: string;
  /** The transaction is valid while the block height is ≤ this. */
  readonly lastValidBlockHeight: number;
}

export interface RecentBlockhash extends LatestBlockhash {
  /** Wall clock (Unix ms) when the fetch that returned it started: it is at least this recent. */
  readonly fetchedAtMs: number;
}

export interface RecentBlockhashOptions {
  /** Default 2 000 ms. */
  readonly maxAgeMs?: number;
  /** Default 1 000 ms. */
  readonly refreshAfterMs?: number;
  readonly wallMs?: () => number;
}

export class RecentBlockhashes {
  private current: RecentBlockhash | null = null;
  private inflight: Promise<RecentBlockhash> | null = null;
  private readonly maxAgeMs: number;
  private readonly refreshAfterMs: number;
  private readonly wallMs: () => number;

  constructor(
    private readonly fetchLatest: () => Promise<LatestBlockhash>,
    options: RecentBlockhashOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 2_000;
    this.refreshAfterMs = options.refreshAfterMs ?? 1_000;
    this.wallMs = options.wallMs ?? Date.now;
  }

  /** A blockhash at most `maxAgeMs` old. */
  async get(): Promise<RecentBlockhash> {
    const current = this.current;
    if (current) {
      const age = this.wallMs() - current.fetchedAtMs;
      if (age >= 0 && age < this.maxAgeMs) {
        if (age >= this.refreshAfterMs) this.refresh().catch(() => undefined); // the next caller retries
        return current;
      }
    }
    return this.refresh();
  }

  private refresh(): Promise<RecentBlockhash> {
    this.inflight ??= this.fetch().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async fetch(): Promise<RecentBlockhash> {
    const fetchedAtMs = this.wallMs();
    const { blockhash, lastValidBlockHeight } = await this.fetchLatest();
    const fresh = { blockhash, lastValidBlockHeight, fetchedAtMs };
    this.current = fresh;
    return fresh;
  }
}
