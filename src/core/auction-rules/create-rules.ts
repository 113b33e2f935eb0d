/**
 * Parameter rules of `create_auction` (pure: no accounts, no runtime). The API validates a create
 * request with the same function before it builds the transaction.
 */
import type { AuctionType } from '../program/auction-account.js';
import type { CreateAuctionArgs } from '../program/instructions.js';
import type { AuctionProgramErrorName } from '../program/program-errors.js';

export const MIN_DURATION_SECONDS = 900;
export const MAX_DURATION_SECONDS = 2_592_000;
/** A delayed start may be at most this far ahead of chain time. */
export const MAX_START_DELAY_SECONDS = 2_592_000;
export const MAX_SNIPE_EXTENSION_SECONDS = 86_400;
/** Bounds Config.defaultSnipeWindowSeconds like the extension. */
export const MAX_SNIPE_WINDOW_SECONDS = 86_400;

export interface RuleViolation {
  readonly error: AuctionProgramErrorName;
  readonly detail: string;
}

export type AuctionParams = Pick<
  CreateAuctionArgs,
  | 'auctionType'
  | 'startingPrice'
  | 'minIncrement'
  | 'buyNowPrice'
  | 'dutchFloor'
  | 'reserveCommitment'
  | 'startTs'
  | 'durationSeconds'
  | 'snipeExtensionSeconds'
>;

export type ScheduleCheck =
  | { readonly ok: true; readonly startTs: bigint; readonly endTs: bigint }
  | ({ readonly ok: false } & RuleViolation);

const isEnglishAuction = (t: AuctionType) => t === 'standard' || t === 'reserve';

const violation = (error: AuctionProgramErrorName, detail: string) => ({ ok: false as const, error, detail });

/** Start and end in chain seconds: `startTs` 0 means now; a later start is allowed up to 30 days ahead. */
export function checkAuctionSchedule(p: AuctionParams, now: bigint): ScheduleCheck {
  if (p.durationSeconds < MIN_DURATION_SECONDS || p.durationSeconds > MAX_DURATION_SECONDS) {
    return violation('InvalidDuration', `${p.durationSeconds} s`);
  }
  const startTs = p.startTs === 0n ? now : p.startTs;
  if (startTs < now) return violation('InvalidStartTime', `start ${startTs} is before chain time ${now}`);
  if (startTs > now + BigInt(MAX_START_DELAY_SECONDS)) {
    return violation('InvalidStartTime', `start ${startTs} is more than 30 days after chain time ${now}`);
  }
  return { ok: true, startTs, endTs: startTs + BigInt(p.durationSeconds) };
}

/**
 * Prices must fit the type, and fields of other types must be empty (0 / no commitment), so an
 * account never carries a price that does not apply to it:
 * - standard, reserve: startingPrice > 0, minIncrement > 0; reserve also needs the commitment.
 * - dutch: startingPrice > dutchFloor > 0 (minIncrement is unused and kept as given).
 * - buy_now: buyNowPrice > 0 (startingPrice and minIncrement are unused and kept as given).
 */
export function checkAuctionPrices(p: AuctionParams): RuleViolation | null {
  if (p.buyNowPrice !== 0n && p.auctionType !== 'buy_now')
    return { error: 'InvalidPrice', detail: 'buyNowPrice is for buy_now only' };
  if (p.dutchFloor !== 0n && p.auctionType !== 'dutch')
    return { error: 'InvalidPrice', detail: 'dutchFloor is for dutch only' };
  if ((p.reserveCommitment !== null) !== (p.auctionType === 'reserve')) {
    return {
      error: 'InvalidPrice',
      detail: 'a reserve commitment is required for reserve auctions and only for them',
    };
  }
  if (isEnglishAuction(p.auctionType) && (p.startingPrice === 0n || p.minIncrement === 0n)) {
    return { error: 'InvalidPrice', detail: 'startingPrice and minIncrement must be positive' };
  }
  if (p.auctionType === 'dutch' && !(p.startingPrice > p.dutchFloor && p.dutchFloor > 0n)) {
    return { error: 'InvalidPrice', detail: 'dutch needs startingPrice > dutchFloor > 0' };
  }
  if (p.auctionType === 'buy_now' && p.buyNowPrice === 0n) {
    return { error: 'InvalidPrice', detail: 'buyNowPrice must be positive' };
  }
  return null;
}

export function checkSnipeExtension(p: Pick<AuctionParams, 'snipeExtensionSeconds'>): RuleViolation | null {
  return p.snipeExtensionSeconds > MAX_SNIPE_EXTENSION_SECONDS
    ? { error: 'InvalidSnipeSettings', detail: `${p.snipeExtensionSeconds} s` }
    : null;
}
