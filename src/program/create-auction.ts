/**
 * create_auction: the seller lists 1–5 `.sol` domains. Creates the auction PDA
 * ["auction", seller, nonce u64 LE] and moves every domain's SNS ownership to it (escrow).
 *
 * Accounts: 0 seller (signer, writable) · 1 auction PDA (writable) · 2 config PDA · 3 system program ·
 * 4 name program · 5.. one SNS name account per domain (writable), in `domainNames` order.
 */
import { addressToBytes } from '../core/address.js';
import {
  checkAuctionPrices,
  checkAuctionSchedule,
  checkSnipeExtension,
  type RuleViolation,
} from '../core/auction-rules/create-rules.js';
import { validateDomainName } from '../core/domain-name.js';
import {
  AUCTION_ACCOUNT_SIZE,
  AUCTION_ACCOUNT_VERSION,
  type AuctionAccount,
  type EscrowedDomain,
  MAX_DOMAINS_PER_AUCTION,
} from '../core/program/auction-account.js';
import {
  NAME_PROGRAM_ID,
  nonceSeed,
  SEEDS,
  SOL_TLD_ACCOUNT,
  SYSTEM_PROGRAM_ID,
} from '../core/program/ids.js';
import type { CreateAuctionArgs } from '../core/program/instructions.js';
import type { InstructionAccount, InvokeContext } from '../localnet/runtime/program-abi.js';
import {
  accountAt,
  accountsFrom,
  loadConfig,
  requireProgram,
  requireSigner,
  requireWritable,
  storeAuction,
} from './accounts.js';
import { transferNameOwnership } from './cpi.js';
import { emit } from './emit.js';
import { auctionError } from './errors.js';
import { domainNameAccount, readNameHeader } from './name-accounts.js';
import { initializePda } from './pda.js';

const NAME_ACCOUNTS_START = 5;

export function createAuction(ctx: InvokeContext, args: CreateAuctionArgs): void {
  const seller = accountAt(ctx, 0, 'seller');
  const auctionAccount = accountAt(ctx, 1, 'auction');
  requireSigner(seller, 'seller');
  requireWritable(seller, 'seller');
  requireWritable(auctionAccount, 'auction');
  const config = loadConfig(ctx, accountAt(ctx, 2, 'config'));
  requireProgram(accountAt(ctx, 3, 'system program'), SYSTEM_PROGRAM_ID, 'system program');
  requireProgram(accountAt(ctx, 4, 'name program'), NAME_PROGRAM_ID, 'name program');

  const count = args.domainNames.length;
  if (count < 1 || count > MAX_DOMAINS_PER_AUCTION)
    throw auctionError('InvalidDomainCount', `${count} domains`);
  const nameAccounts = accountsFrom(ctx, NAME_ACCOUNTS_START, count, 'name');

  const now = ctx.clock.unixTimestamp;
  const schedule = checkAuctionSchedule(args, now);
  if (!schedule.ok) throw auctionError(schedule.error, schedule.detail);
  throwIfViolated(checkAuctionPrices(args));
  throwIfViolated(checkSnipeExtension(args));

  const seeds = [SEEDS.auction, addressToBytes(seller.key), nonceSeed(args.nonce)];
  const [expectedAddress, bump] = ctx.syscalls.findProgramAddress(seeds, ctx.programId);
  if (auctionAccount.key !== expectedAddress) {
    throw auctionError('InvalidAuctionAddress', `expected ${expectedAddress} for nonce ${args.nonce}`);
  }

  const domains = args.domainNames.map((name, i) =>
    checkListedDomain(ctx, name, nameAccounts[i]!, seller.key),
  );
  if (new Set(args.domainNames).size !== count)
    throw auctionError('InvalidDomainName', 'a domain is listed twice');

  initializePda(ctx, {
    payer: seller.key,
    account: auctionAccount,
    space: AUCTION_ACCOUNT_SIZE,
    signerSeeds: [...seeds, Uint8Array.of(bump)],
  });
  for (const domain of domains) {
    transferNameOwnership(ctx, {
      nameAccount: domain.nameAccount,
      currentOwner: seller.key,
      newOwner: auctionAccount.key,
    });
  }

  const auction: AuctionAccount = {
    version: AUCTION_ACCOUNT_VERSION,
    bump,
    auctionType: args.auctionType,
    state: 'active',
    seller: seller.key,
    nonce: args.nonce,
    startingPrice: args.startingPrice,
    minIncrement: args.minIncrement,
    buyNowPrice: args.buyNowPrice,
    dutchFloor: args.dutchFloor,
    reserveCommitment: args.reserveCommitment,
    startTs: schedule.startTs,
    endTs: schedule.endTs,
    snipeEnabled: args.snipeEnabled,
    snipeWindowSeconds: config.defaultSnipeWindowSeconds,
    snipeExtensionSeconds: args.snipeExtensionSeconds,
    topBidder: null,
    topBid: 0n,
    bidCount: 0,
    winner: null,
    finalPrice: 0n,
    reserveOutcome: 'unknown',
    createdAt: now,
    settledAt: 0n,
    domains,
  };
  storeAuction(auctionAccount, auction);

  emit(ctx, {
    name: 'AuctionCreated',
    data: {
      auction: auctionAccount.key,
      seller: seller.key,
      auctionType: auction.auctionType,
      domains: args.domainNames,
      startingPrice: auction.startingPrice,
      minIncrement: auction.minIncrement,
      buyNowPrice: auction.buyNowPrice,
      dutchFloor: auction.dutchFloor,
      hasReserve: auction.reserveCommitment !== null,
      startTs: auction.startTs,
      endTs: auction.endTs,
      snipeEnabled: auction.snipeEnabled,
      snipeWindowSeconds: auction.snipeWindowSeconds,
      snipeExtensionSeconds: auction.snipeExtensionSeconds,
      timestamp: now,
    },
  });
}

function throwIfViolated(violation: RuleViolation | null): void {
  if (violation) throw auctionError(violation.error, violation.detail);
}

/** A valid second-level .sol name whose derived name account is passed, and the seller owns it. */
function checkListedDomain(
  ctx: InvokeContext,
  name: string,
  account: InstructionAccount,
  seller: InstructionAccount['key'],
): EscrowedDomain {
  const validation = validateDomainName(name);
  if (!validation.ok)
    throw auctionError('InvalidDomainName', `${JSON.stringify(name)}: ${validation.message}`);
  const expected = domainNameAccount(ctx, validation.name);
  if (account.key !== expected) throw auctionError('DomainAccountMismatch', `${name} is ${expected}`);
  requireWritable(account, `name account of ${name}`);
  const header = readNameHeader(account);
  if (!header || header.parent !== SOL_TLD_ACCOUNT) {
    throw auctionError('DomainAccountMismatch', `${name} is not a registered .sol domain`);
  }
  if (header.owner !== seller)
    throw auctionError('DomainNotOwnedBySeller', `${name} is owned by ${header.owner}`);
  return { nameAccount: account.key, name };
}
