import type { AuctionAccount } from '../program/auction-account.js';

export type DutchSchedule = Pick<AuctionAccount, 'startingPrice' | 'dutchFloor' | 'startTs' | 'endTs'>;

/**
 * The Dutch price at chain time `t`: start − (start − floor) × (t − startTs) / (endTs − startTs),
 * in integer lamports with floor division, so the price only ever moves down to the next lamport.
 * Before the start it is the starting price, from the end on the floor. A schedule whose floor is
 * not below its start (refused at creation) stays at the starting price.
 */
export function dutchPrice(a: DutchSchedule, t: bigint): bigint {
  const { startingPrice: start, dutchFloor: floor, startTs, endTs } = a;
  if (floor >= start) return start;
  if (t >= endTs) return floor;
  if (t <= startTs) return start;
  // startTs < t < endTs here, so every operand is positive and bigint division is floor division.
  return start - ((start - floor) * (t - startTs)) / (endTs - startTs);
}

/**
 * The first whole second at which the Dutch price is at or below `stopPrice`, or null if it never
 * gets there (stop below the floor). When the price starts at or below the stop, that is `startTs`.
 */
export function dutchCrossingTime(a: DutchSchedule, stopPrice: bigint): bigint | null {
  const { startingPrice: start, dutchFloor: floor, startTs, endTs } = a;
  if (stopPrice >= dutchPrice(a, startTs)) return a.startTs;
  if (stopPrice < dutchPrice(a, endTs)) return null;
  // price(startTs) > stop ≥ price(endTs) implies floor ≤ stop < start and startTs < endTs, so with
  // D = start − floor, L = endTs − startTs: price(startTs + e) ≤ stop ⇔ ⌊D·e/L⌋ ≥ start − stop ⇔ e ≥ ⌈(start − stop)·L/D⌉.
  const drop = start - floor;
  const span = endTs - startTs;
  const needed = start - stopPrice;
  return startTs + (needed * span + drop - 1n) / drop;
}
