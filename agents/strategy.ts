/**
 * The strategy-author API. A strategy is a zod config schema plus one pure function: given the
 * auctions it watches (as `AuctionView`s), its own state and the chain time, it returns actions
 * (bids), when it wants to be woken next, and whether it is done. Strategies never do I/O, never
 * read a clock and never sign: the runner (live, paper or backtest) does all of that, so the same
 * code runs unchanged in every mode and a backtest replays the live decisions exactly.
 */
import type { z } from 'zod';
import type { DutchSchedule } from '../src/core/auction-rules/dutch-price.js';
import type { AuctionStatus } from '../src/core/auction-rules/status.js';
import type { Lamports } from '../src/core/money.js';
import type { AuctionType } from '../src/core/program/auction-account.js';

/** One auction as a strategy sees it. Times are chain Unix ms, money is lamports. */
export interface AuctionView {
  readonly id: string;
  readonly type: AuctionType;
  readonly startTime: number;
  /** The current end, after every extension so far. */
  readonly endTime: number;
  readonly snipeEnabled: boolean;
  /** A bid with this much time (ms) or less left moves the end by `snipeExtensionMs`. */
  readonly snipeWindowMs: number;
  readonly snipeExtensionMs: number;
  readonly startingPrice: Lamports;
  readonly minIncrement: Lamports;
  /** English: top bid + increment (or the starting price); see `minimumBidAt` for Dutch. */
  readonly minimumBid: Lamports | null;
  readonly topBid: Lamports | null;
  readonly topBidder: string | null;
  /** Our wallet holds the top bid. */
  readonly weHold: boolean;
  readonly bidCount: number;
  /** Dutch only: the price curve (lamports, chain seconds); `dutchPrice` evaluates it. */
  readonly dutch: DutchSchedule | null;
  readonly buyNowPrice: Lamports | null;
  readonly cancelled: boolean;
  readonly settled: boolean;
  readonly winner: string | null;
  /** Chain time (ms) the server computed this view at. */
  readonly observedAt: number;
}

export interface BidAction {
  readonly kind: 'bid';
  readonly auctionId: string;
  /** Lamports. For Dutch and buy-now: the most we pay (the program charges the price). */
  readonly amount: Lamports;
  /** Why, in a few words, for the decision log. */
  readonly reason: string;
}

export type Action = BidAction;

export type Outcome = 'won' | 'lost' | 'gave_up';

/** A bid the runner placed (or, in paper mode, would have placed) for this instance. */
export interface OwnBid {
  readonly auctionId: string;
  readonly amount: Lamports;
  /** Chain ms the bid was decided at. */
  readonly at: number;
}

export interface DecideInput<C, S> {
  readonly config: C;
  readonly state: S;
  /** Chain time, ms: the only clock a strategy may use. */
  readonly now: number;
  readonly views: ReadonlyMap<string, AuctionView>;
  /** Bids already placed by this instance, oldest first. */
  readonly bids: readonly OwnBid[];
}

export interface Decision<S> {
  readonly actions: readonly Action[];
  /** Chain ms at which to decide again (the runner also re-decides on events and when polling). */
  readonly wakeAt: number | null;
  /** Set when the instance has nothing left to do. */
  readonly done: { readonly outcome: Outcome; readonly reason: string } | null;
  readonly state: S;
}

export interface StrategyDefinition<C extends z.ZodType = z.ZodType, S = unknown> {
  readonly name: string;
  readonly description: string;
  /** Validates the author's config (SOL numbers at this edge; converted inside `decide`). */
  readonly config: C;
  /** The auctions an instance watches: the runner fetches these views. */
  auctionIds(config: z.output<C>): string[];
  initialState(config: z.output<C>): S;
  decide(input: DecideInput<z.output<C>, S>): Decision<S>;
}

/** Identity helper that keeps the config type attached to `decide`. */
export function defineStrategy<C extends z.ZodType, S>(definition: StrategyDefinition<C, S>) {
  return definition;
}

export const idle = <S>(state: S, wakeAt: number | null = null): Decision<S> => ({
  actions: [],
  wakeAt,
  done: null,
  state,
});

export const finished = <S>(state: S, outcome: Outcome, reason: string): Decision<S> => ({
  actions: [],
  wakeAt: null,
  done: { outcome, reason },
  state,
});

export type { AuctionStatus };
