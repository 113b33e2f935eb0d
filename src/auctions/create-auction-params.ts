/**
 * A create request checked field by field and turned into the program's parameters, with the
 * program's own create rules (core/auction-rules/create-rules) so a transaction we build never
 * fails on them. Every rejection names the field.
 */
import {
  checkAuctionPrices,
  checkSnipeExtension,
  MAX_DURATION_SECONDS,
  MAX_SNIPE_EXTENSION_SECONDS,
  MIN_DURATION_SECONDS,
} from '../core/auction-rules/create-rules.js';
import { validateDomainName } from '../core/domain-name.js';
import { type AuctionType, MAX_DOMAINS_PER_AUCTION } from '../core/program/auction-account.js';
import { invalidField, lamportsOf } from './field-errors.js';

export const MIN_DURATION_HOURS = MIN_DURATION_SECONDS / 3600;
export const MAX_DURATION_HOURS = MAX_DURATION_SECONDS / 3600;
export const DEFAULT_SNIPE_EXTENSION_SECONDS = 300;

export interface CreateAuctionRequest {
  readonly domainNames: readonly string[];
  readonly type: AuctionType;
  /** SOL. */
  readonly startingPrice: number;
  readonly minBidIncrement: number;
  readonly durationHours: number;
  readonly reservePrice?: number | null | undefined;
  readonly buyNowPrice?: number | null | undefined;
  readonly dutchEndPrice?: number | null | undefined;
  readonly snipeProtectionEnabled?: boolean | undefined;
  readonly snipeExtensionSeconds?: number | undefined;
  /** Scheduled start, Unix ms (chain time); absent = when the transaction lands. */
  readonly startTime?: number | undefined;
}

/** Program parameters (lamports, seconds) of a valid request; the nonce and commitment come later. */
export interface CreateAuctionPlan {
  readonly domainNames: readonly string[];
  readonly auctionType: AuctionType;
  readonly startingPrice: bigint;
  readonly minIncrement: bigint;
  readonly buyNowPrice: bigint;
  readonly dutchFloor: bigint;
  /** Lamports of the hidden reserve (reserve auctions only). */
  readonly reserve: bigint | null;
  /** Chain seconds; 0 = start when the transaction lands. */
  readonly startTs: bigint;
  readonly durationSeconds: number;
  readonly snipeEnabled: boolean;
  readonly snipeExtensionSeconds: number;
}

/** The price field each type requires; on other types it must be absent. */
const TYPE_PRICE_FIELDS = {
  reservePrice: 'reserve',
  buyNowPrice: 'buy_now',
  dutchEndPrice: 'dutch',
} as const satisfies Record<string, AuctionType>;

function checkDomainNames(names: readonly string[]): void {
  if (names.length < 1 || names.length > MAX_DOMAINS_PER_AUCTION) {
    throw invalidField('domainNames', `must list 1 to ${MAX_DOMAINS_PER_AUCTION} domain names`);
  }
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const validation = validateDomainName(name);
    if (!validation.ok)
      throw invalidField(`domainNames[${i}]`, `${JSON.stringify(name)}: ${validation.message}`);
    if (seen.has(name)) throw invalidField(`domainNames[${i}]`, `${name} is listed twice`);
    seen.add(name);
  });
}

function positive(field: string, sol: number): bigint {
  const lamports = lamportsOf(field, sol);
  if (lamports === 0n) throw invalidField(field, 'must be greater than 0');
  return lamports;
}

/** The type's own price in lamports (reserve, buy-now price or Dutch floor); null for standard. */
function typePrice(r: CreateAuctionRequest): bigint | null {
  let price: bigint | null = null;
  for (const [field, type] of Object.entries(TYPE_PRICE_FIELDS) as [
    keyof typeof TYPE_PRICE_FIELDS,
    AuctionType,
  ][]) {
    const sol = r[field];
    if (type !== r.type) {
      if (sol != null) throw invalidField(field, `applies only to type ${type}`);
    } else if (sol == null) {
      throw invalidField(field, `is required when type is ${type}`);
    } else {
      price = positive(field, sol);
    }
  }
  return price;
}

function durationSeconds(hours: number): number {
  if (!(hours >= MIN_DURATION_HOURS && hours <= MAX_DURATION_HOURS)) {
    throw invalidField(
      'durationHours',
      `must be ${MIN_DURATION_HOURS} to ${MAX_DURATION_HOURS} hours (15 minutes to 30 days)`,
    );
  }
  return Math.round(hours * 3600);
}

/** Validates everything that does not need the chain. Throws 400 INVALID_REQUEST naming the field. */
export function planAuction(r: CreateAuctionRequest): CreateAuctionPlan {
  checkDomainNames(r.domainNames);
  const english = r.type === 'standard' || r.type === 'reserve';
  const startingPrice =
    english || r.type === 'dutch'
      ? positive('startingPrice', r.startingPrice)
      : lamportsOf('startingPrice', r.startingPrice);
  const minIncrement = english
    ? positive('minBidIncrement', r.minBidIncrement)
    : lamportsOf('minBidIncrement', r.minBidIncrement);
  const price = typePrice(r);
  if (r.type === 'dutch' && price !== null && price >= startingPrice) {
    throw invalidField('dutchEndPrice', 'must be below startingPrice (the Dutch price falls to it)');
  }
  const snipeExtensionSeconds = r.snipeExtensionSeconds ?? DEFAULT_SNIPE_EXTENSION_SECONDS;
  if (!Number.isInteger(snipeExtensionSeconds) || snipeExtensionSeconds < 0) {
    throw invalidField(
      'snipeExtensionSeconds',
      `must be an integer from 0 to ${MAX_SNIPE_EXTENSION_SECONDS}`,
    );
  }
  if (r.startTime !== undefined && !(Number.isSafeInteger(r.startTime) && r.startTime > 0)) {
    throw invalidField('startTime', 'must be a Unix time in milliseconds');
  }

  const plan: CreateAuctionPlan = {
    domainNames: [...r.domainNames],
    auctionType: r.type,
    startingPrice,
    minIncrement,
    buyNowPrice: r.type === 'buy_now' ? price! : 0n,
    dutchFloor: r.type === 'dutch' ? price! : 0n,
    reserve: r.type === 'reserve' ? price : null,
    startTs: r.startTime === undefined ? 0n : BigInt(Math.ceil(r.startTime / 1000)),
    durationSeconds: durationSeconds(r.durationHours),
    snipeEnabled: r.snipeProtectionEnabled ?? false,
    snipeExtensionSeconds,
  };
  // The program's own rules, on the exact parameters it will see (a placeholder commitment for reserve).
  const params = { ...plan, reserveCommitment: plan.reserve === null ? null : new Uint8Array(32) };
  const violation = checkAuctionPrices(params) ?? checkSnipeExtension(params);
  if (violation) {
    const field = violation.error === 'InvalidSnipeSettings' ? 'snipeExtensionSeconds' : 'type';
    throw invalidField(field, `${violation.detail} (program rule ${violation.error})`);
  }
  return plan;
}
