/**
 * POST /auctions/:id/settle: the service signs with its keeper and confirms by polling. Idempotent
 * across calls and instances: a Redis lock per auction lets exactly one caller send the settle
 * transaction; everybody else waits for its stored record (and says `alreadySettled`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Transaction } from '@solana/web3.js';
import { fetchAuction, settleInstruction } from '../chain/auction-client.js';
import {
  sendAndConfirmByPolling,
  TransactionExpiredError,
  TransactionFailedError,
  TransactionTimeoutError,
} from '../chain/send-and-confirm.js';
import type { Address } from '../core/address.js';
import { AppError } from '../core/errors.js';
import type { ReserveReveal } from '../core/program/instructions.js';
import { auctionProgramErrorName } from '../core/program/program-errors.js';
import { reserveSalt } from '../core/reserve-commitment.js';
import type { SettlementRecord } from '../redis/settlement-store.js';
import type { AuctionDeps } from './auction-deps.js';
import { chainMs } from './auction-view.js';
import { type AuctionRead, CONFIG_ADDRESS, decodeConfig, readAuction } from './chain-reads.js';
import {
  findSettlingTransaction,
  recordFromAccount,
  type SettlementView,
  settlementView,
} from './settlement-record.js';

/** Longer than a send can take (60 s confirmation timeout), so the lock never expires under a live holder. */
const LOCK_TTL_MS = 90_000;
const WAIT_POLL_MS = 100;
const MAX_ATTEMPTS = 3;

/** Outcome of one attempt: a settlement, or "look again" (another caller holds the lock, a blockhash expired). */
type Attempt = { readonly record: SettlementRecord; readonly alreadySettled: boolean } | null;

export async function settleAuction(deps: AuctionDeps, auctionId: Address): Promise<SettlementView> {
  for (let attempt = 1; ; attempt++) {
    const result = await settleOnce(deps, auctionId);
    if (result) return settlementView(result.record, result.alreadySettled);
    if (attempt >= MAX_ATTEMPTS) {
      throw new AppError('INTERNAL_ERROR', 'settlement did not complete; retry shortly', { httpStatus: 503 });
    }
  }
}

async function settleOnce(deps: AuctionDeps, auctionId: Address): Promise<Attempt> {
  const stored = await deps.settlements.get(auctionId);
  if (stored) return { record: stored, alreadySettled: true };
  const read = await readAuction(deps, auctionId, [CONFIG_ADDRESS]);
  const settled = await settledOnChain(deps, read);
  if (settled) return { record: settled, alreadySettled: true };

  const lock = deps.settlements.lock(auctionId, LOCK_TTL_MS);
  if (!(await lock.acquire())) {
    await waitForHolder(deps, auctionId);
    return (await deps.settlements.get(auctionId)) ? settleOnce(deps, auctionId) : null;
  }
  try {
    // Whoever held the lock before us may have finished between our first look and our acquire.
    const finished = await deps.settlements.get(auctionId);
    if (finished) return { record: finished, alreadySettled: true };
    return await sendSettlement(deps, await readAuction(deps, auctionId, [CONFIG_ADDRESS]));
  } finally {
    await lock
      .release()
      .catch((e: unknown) => deps.logger.warn({ err: e, auctionId }, 'settle lock release failed'));
  }
}

/** Already settled (by the keeper, another instance, or a dutch/buy_now bid): its record. 400 if it cannot be. */
async function settledOnChain(
  deps: AuctionDeps,
  { auction, now }: AuctionRead,
): Promise<SettlementRecord | null> {
  if (auction.state === 'cancelled') {
    throw new AppError(
      'INVALID_REQUEST',
      'the auction was cancelled by the seller: there is nothing to settle',
      {
        details: { reason: 'cancelled' },
      },
    );
  }
  if (auction.state === 'settled') {
    const record = recordFromAccount(
      auction,
      await findSettlingTransaction(deps.connection, auction.address),
    );
    await deps.settlements.put(record);
    return record;
  }
  if (now < auction.endTs) {
    throw new AppError(
      'INVALID_REQUEST',
      `the auction has not ended: auction ends at ${new Date(chainMs(auction.endTs)).toISOString()}`,
      {
        details: { reason: 'not_ended', endTime: chainMs(auction.endTs), serverTime: chainMs(now) },
      },
    );
  }
  return null;
}

async function waitForHolder(deps: AuctionDeps, auctionId: Address): Promise<void> {
  const deadline = performance.now() + LOCK_TTL_MS;
  while ((await deps.settlements.isLocked(auctionId)) && performance.now() < deadline)
    await sleep(WAIT_POLL_MS);
}

function reveal(deps: AuctionDeps, read: AuctionRead, reserve: bigint | null): ReserveReveal | null {
  const { auction } = read;
  if (auction.reserveCommitment === null) return null;
  if (reserve === null) {
    if (auction.topBidder === null) return null;
    throw new AppError(
      'INTERNAL_ERROR',
      `the hidden reserve of auction ${auction.address} is not known to this service`,
    );
  }
  return { reserve, salt: reserveSalt(deps.chain.reserveSecret, auction.address) };
}

/** Holding the lock: sign with the keeper, send, confirm, store the record. */
async function sendSettlement(deps: AuctionDeps, read: AuctionRead): Promise<Attempt> {
  const settled = await settledOnChain(deps, read);
  if (settled) return { record: settled, alreadySettled: true };
  const { auction, extras } = read;
  const keeper = deps.chain.keeper;
  const instruction = settleInstruction({
    keeper: keeper.publicKey,
    auction,
    treasury: decodeConfig(extras[0]).treasury,
    reveal: reveal(deps, read, await deps.reserves.get(auction.address)),
  });
  const lifetime = await deps.connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: keeper.publicKey, ...lifetime }).add(instruction);
  tx.sign(keeper);
  let signature: string;
  try {
    signature = (await sendAndConfirmByPolling(deps.connection, tx.serialize(), lifetime)).signature;
  } catch (e) {
    return settleFailure(deps, auction.address, e);
  }
  const after = await fetchAuction(deps.connection, auction.address, 'confirmed');
  if (!after) throw new AppError('INTERNAL_ERROR', `auction ${auction.address} vanished after settlement`);
  const record = recordFromAccount(after, signature);
  await deps.settlements.put(record);
  deps.logger.info({ auctionId: auction.address, signature, winner: record.winner }, 'auction settled');
  return { record, alreadySettled: false };
}

/** Chain failures in words; a race lost to another settler is not a failure (the caller looks again). */
function settleFailure(deps: AuctionDeps, auctionId: string, e: unknown): Attempt {
  if (e instanceof TransactionExpiredError) return null;
  if (e instanceof TransactionTimeoutError) {
    throw new AppError('INTERNAL_ERROR', 'the settle transaction was not confirmed in time; retry shortly', {
      httpStatus: 503,
      details: { transactionId: e.signature },
    });
  }
  if (!(e instanceof TransactionFailedError)) throw e;
  const code = e.customErrorCode;
  const name = code === null ? undefined : auctionProgramErrorName(code);
  deps.logger.error({ auctionId, err: e.err, logs: e.logs, programError: name }, 'settle transaction failed');
  switch (name) {
    case 'AuctionNotActive':
    case 'AuctionNotEnded':
      return null;
    case 'UnauthorizedKeeper':
      throw new AppError('INTERNAL_ERROR', "the service's keeper is not the program's configured keeper", {
        details: { programError: name },
      });
    case 'ReserveRevealMismatch':
      throw new AppError(
        'INTERNAL_ERROR',
        'the stored hidden reserve does not open the on-chain commitment',
        {
          details: { programError: name },
        },
      );
    default:
      throw new AppError(
        'INTERNAL_ERROR',
        `the settle transaction failed: ${name ?? JSON.stringify(e.err)}`,
        {
          details: { programError: name ?? null },
        },
      );
  }
}
