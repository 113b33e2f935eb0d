/**
 * Every tunable of webhook delivery, with the defaults API.md fixes. Tests pass a shortened copy
 * (`{ ...DEFAULT_DELIVERY_SETTINGS, retryDelaysMs: [0, 20, 20] }`) to the functions that take one.
 */
export interface DeliverySettings {
  /** Delay before each attempt, the first being 0: the number of entries is the number of attempts. */
  readonly retryDelaysMs: readonly number[];
  /** ± fraction applied to every retry delay, so a recovering receiver is not hit in lockstep. */
  readonly jitter: number;
  /** A 2xx must arrive within this. */
  readonly timeoutMs: number;
  /** How long the previous secret keeps signing after a rotation. */
  readonly secretOverlapMs: number;
  /** A subscription failing without a single success for this long is deactivated. */
  readonly deactivateAfterMs: number;
  /** How long delivery attempts stay in the log. */
  readonly deliveryLogRetentionMs: number;
  /** `auction.ending_soon` fires this long (chain seconds) before an auction's end. */
  readonly endingSoonLeadSeconds: number;
  /** Between two ending-soon sweeps. */
  readonly endingSoonSweepEveryMs: number;
  /** BullMQ lock of an active job; a worker that dies mid-delivery gives the job back after it. */
  readonly jobLockMs: number;
  /** Parallel deliveries per worker process (IO-bound). */
  readonly concurrency: number;
  /** Longest block of the fan-out's XREADGROUP, i.e. how fast it notices a stop. */
  readonly fanOutBlockMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = Object.freeze({
  retryDelaysMs: [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  jitter: 0.2,
  timeoutMs: 15 * SECOND,
  secretOverlapMs: DAY,
  deactivateAfterMs: 5 * DAY,
  deliveryLogRetentionMs: 30 * DAY,
  endingSoonLeadSeconds: 5 * 60,
  endingSoonSweepEveryMs: 15 * SECOND,
  jobLockMs: 30 * SECOND,
  concurrency: 50,
  fanOutBlockMs: 2 * SECOND,
});
