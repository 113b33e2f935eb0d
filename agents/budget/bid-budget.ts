/**
 * Pure minute-bucket math of the per-key bid budget. The server counts bids in fixed windows
 * aligned to the wall-clock minute (bucket = floor(now / 60 s), src/redis/rate-limiter.ts). Our
 * clock and the server's differ by up to `guardMs`, so a bid sent within `guardMs` of a boundary may
 * be counted in either bucket: it is charged to both, and the budget never lets the server say 429.
 */
import type { RateLimitInfo } from '../../src/client/api-error.js';

export interface BudgetPolicy {
  /** The server's limit per window (bids: 60). */
  readonly limit: number;
  readonly windowMs: number;
  /** Largest clock difference from the server we tolerate. */
  readonly guardMs: number;
  /** Slots per window only urgent bids (timed snipes, Dutch crossings) may use. */
  readonly urgentReserve: number;
}

export const BID_BUDGET_POLICY: BudgetPolicy = {
  limit: 60,
  windowMs: 60_000,
  guardMs: 500,
  urgentReserve: 10,
};

export const bucketOf = (nowMs: number, p: BudgetPolicy): number => Math.floor(nowMs / p.windowMs);

/** The buckets the server may count a request sent at `nowMs` in. */
export function bucketsFor(nowMs: number, p: BudgetPolicy): number[] {
  const b = bucketOf(nowMs, p);
  const into = nowMs - b * p.windowMs;
  const buckets = [b];
  if (into < p.guardMs) buckets.unshift(b - 1);
  if (into >= p.windowMs - p.guardMs) buckets.push(b + 1);
  return buckets;
}

/** How many bids of this urgency a bucket may hold. */
export const capFor = (urgent: boolean, p: BudgetPolicy): number =>
  urgent ? p.limit : Math.max(1, p.limit - p.urgentReserve);

/** When a refused request may try again: just past the guard band after the current bucket ends. */
export function msUntilRetry(nowMs: number, p: BudgetPolicy): number {
  const next = (bucketOf(nowMs, p) + 1) * p.windowMs;
  return next - nowMs + p.guardMs;
}

/**
 * What the server's X-RateLimit-* headers say about its current bucket: which bucket (from the
 * reset, so a different server clock is tolerated) and how many requests it has counted there.
 */
export function usageFromHeaders(info: RateLimitInfo, nowMs: number, p: BudgetPolicy) {
  // reset = ceil((end − t) / 1 s), so t + (reset − 1) s lies inside the bucket that ends at `end`.
  const inside = nowMs + Math.max(0, info.resetSeconds - 1) * 1000;
  return { bucket: bucketOf(inside, p), used: Math.max(0, info.limit - info.remaining) };
}
