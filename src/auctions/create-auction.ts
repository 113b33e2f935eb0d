/**
 * POST /auctions/create: checks the request and the chain (every domain registered and owned by the
 * key's wallet, the seller can pay rent and fee), then returns the unsigned create_auction
 * transaction for the seller to sign. The auction id is the PDA of a random nonce, known now.
 */
import { type AccountInfo, PublicKey } from '@solana/web3.js';
import { createAuctionInstruction, findAuctionAddress, randomAuctionNonce } from '../chain/auction-client.js';
import { domainNameAccount, NAME_PROGRAM } from '../chain/sns.js';
import type { TransactionVersion } from '../chain/transaction-builder.js';
import type { Address } from '../core/address.js';
import { checkAuctionSchedule } from '../core/auction-rules/create-rules.js';
import { AppError } from '../core/errors.js';
import { formatSol, lamportsToSol } from '../core/money.js';
import { AUCTION_ACCOUNT_SIZE } from '../core/program/auction-account.js';
import { SOL_TLD_ACCOUNT } from '../core/program/ids.js';
import { reserveCommitment, reserveSalt } from '../core/reserve-commitment.js';
import { decodeNameRecord } from '../core/sns/name-record.js';
import type { AuctionDeps } from './auction-deps.js';
import { chainMs } from './auction-view.js';
import { CONFIG_ADDRESS, decodeConfig, lamportsOfAccount } from './chain-reads.js';
import { type CreateAuctionPlan, type CreateAuctionRequest, planAuction } from './create-auction-params.js';
import { invalidField } from './field-errors.js';
import { SIGNATURE_FEE_LAMPORTS, type WalletTransaction, walletTransaction } from './wallet-transaction.js';

export interface CreateAuctionInput extends CreateAuctionRequest {
  /** The wallet tied to the calling key: the seller, fee payer and signer. */
  readonly seller: Address;
  readonly title?: string | undefined;
  readonly category?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly txVersion?: TransactionVersion | undefined;
}

export interface BidRules {
  /** SOL. */
  readonly minimumBid: number;
  readonly snipeWindowSeconds: number;
  readonly snipeExtensionSeconds: number;
  /** Unix ms. */
  readonly endTime: number;
  /** Chain time the rules were computed at, Unix ms. */
  readonly serverTime: number;
}

export interface CreatedAuction extends WalletTransaction {
  readonly auctionId: Address;
  readonly seller: Address;
  readonly status: 'upcoming';
  /** Unix ms: the scheduled start, or the chain time now (the auction starts when the transaction lands). */
  readonly estimatedStartTime: number;
  readonly rules: BidRules;
}

/** 404 for a domain nobody registered, 403 for one the seller does not own (first of each, in order). */
function checkDomainOwnership(
  names: readonly string[],
  infos: (AccountInfo<Buffer> | null)[],
  seller: Address,
) {
  const records = infos.map((info) =>
    info?.owner.equals(NAME_PROGRAM) ? decodeNameRecord(info.data) : null,
  );
  const unregistered = records.findIndex((r) => r === null || r.parent !== SOL_TLD_ACCOUNT);
  if (unregistered >= 0) {
    throw new AppError('NOT_FOUND', `domain ${names[unregistered]} is not registered on chain`, {
      details: { field: `domainNames[${unregistered}]`, domain: names[unregistered] },
    });
  }
  const foreign = records.findIndex((r) => r!.owner !== seller);
  if (foreign >= 0) {
    throw new AppError(
      'UNAUTHORIZED',
      `domain ${names[foreign]} is not owned by the key's wallet ${seller}`,
      { httpStatus: 403, details: { field: `domainNames[${foreign}]`, domain: names[foreign] } },
    );
  }
}

function checkSellerBalance(balance: bigint, rent: bigint): void {
  const required = rent + SIGNATURE_FEE_LAMPORTS;
  if (balance < required) {
    throw new AppError(
      'INVALID_REQUEST',
      `insufficient balance: the seller wallet holds ${formatSol(balance)} SOL and needs ${formatSol(required)} SOL (auction account rent ${formatSol(rent)} + fee ${formatSol(SIGNATURE_FEE_LAMPORTS)})`,
      {
        details: {
          reason: 'insufficient_balance',
          balance: lamportsToSol(balance),
          required: lamportsToSol(required),
        },
      },
    );
  }
}

function firstMinimumBid(plan: CreateAuctionPlan): bigint {
  return plan.auctionType === 'buy_now' ? plan.buyNowPrice : plan.startingPrice;
}

export async function createAuction(deps: AuctionDeps, input: CreateAuctionInput): Promise<CreatedAuction> {
  const plan = planAuction(input);
  const sellerKey = new PublicKey(input.seller);
  const nameAccounts = plan.domainNames.map((name) => domainNameAccount(name));
  const [{ accounts, clock }, rent] = await Promise.all([
    deps.chainClock.readWithClock([...nameAccounts, sellerKey, CONFIG_ADDRESS]),
    deps.connection.getMinimumBalanceForRentExemption(AUCTION_ACCOUNT_SIZE),
  ]);
  const now = clock.unixTimestamp;
  const config = decodeConfig(accounts[nameAccounts.length + 1]);

  const schedule = checkAuctionSchedule({ ...plan, reserveCommitment: null }, now);
  if (!schedule.ok) {
    if (schedule.error === 'InvalidDuration') throw invalidField('durationHours', schedule.detail);
    throw invalidField('startTime', `must be in the future and at most 30 days ahead: ${schedule.detail}`, {
      serverTime: chainMs(now),
    });
  }
  checkDomainOwnership(plan.domainNames, accounts.slice(0, nameAccounts.length), input.seller);
  checkSellerBalance(lamportsOfAccount(accounts[nameAccounts.length]), BigInt(rent));

  const nonce = randomAuctionNonce();
  const auctionId = findAuctionAddress(sellerKey, nonce).address;
  const commitment =
    plan.reserve === null
      ? null
      : reserveCommitment(plan.reserve, reserveSalt(deps.chain.reserveSecret, auctionId));
  const instruction = createAuctionInstruction({
    ...plan,
    seller: sellerKey,
    nonce,
    reserveCommitment: commitment,
  });
  const tx = await walletTransaction(deps, sellerKey, [instruction], input.txVersion);

  // Stored before the caller can land the transaction: the keeper must always be able to reveal.
  if (plan.reserve !== null) await deps.reserves.put(auctionId, plan.reserve);
  await deps.auctionIndex.putMetadata(auctionId, {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.category === undefined ? {} : { category: input.category }),
    ...(input.tags === undefined ? {} : { tags: [...input.tags] }),
  });

  return {
    auctionId,
    ...tx,
    seller: input.seller,
    status: 'upcoming',
    estimatedStartTime: chainMs(schedule.startTs),
    rules: {
      minimumBid: lamportsToSol(firstMinimumBid(plan)),
      snipeWindowSeconds: config.defaultSnipeWindowSeconds,
      snipeExtensionSeconds: plan.snipeExtensionSeconds,
      endTime: chainMs(schedule.endTs),
      serverTime: chainMs(now),
    },
  };
}
