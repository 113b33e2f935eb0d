/**
 * Carries out one bid action: the kill switch and spend caps first, then a slot from the shared
 * per-key budget, then POST /auctions/:id/bid. Live mode signs the returned transaction with the
 * wallet and sends it until confirmed; paper mode stops after the server's answer (the server
 * still validates the bid and counts it, so paper runs use the same budget as live ones).
 */
import { type Connection, type Keypair, Transaction } from '@solana/web3.js';
import { sendAndConfirmByPolling } from '../../src/chain/send-and-confirm.js';
import { isApiError } from '../../src/client/api-error.js';
import type { SnsAuctionClient } from '../../src/client/sns-auction-client.js';
import { formatSol, lamportsToSol, solToLamports } from '../../src/core/money.js';
import type { RedisBidBudget } from '../budget/redis-bid-budget.js';
import type { BidAction } from '../strategy.js';
import type { InstanceRecord } from './instance-store.js';

export type BidResult =
  | {
      readonly ok: true;
      readonly signature: string | null;
      readonly firedAt: number;
      readonly landedAt: number;
    }
  /** `retry`: worth deciding again at once (the minimum moved, the price has not crossed yet). */
  | { readonly ok: false; readonly retry: true; readonly reason: string }
  /** Not worth retrying: the instance ends (`kill`: stopped; `cap`: gave up; `error`: failed). */
  | {
      readonly ok: false;
      readonly retry: false;
      readonly reason: string;
      readonly end: 'kill' | 'cap' | 'error';
    };

export interface ExecutorDeps {
  readonly client: SnsAuctionClient;
  readonly budget: RedisBidBudget;
  /** Live mode only. */
  readonly signer: { readonly keypair: Keypair; readonly connection: Connection } | null;
  readonly killSwitchOn: () => Promise<boolean>;
  /** Hard cap on any single bid, lamports. */
  readonly maxBidLamports: bigint | null;
}

/** The sum of this instance's standing bids (its latest per auction) if `action` were added. */
export function committedWith(record: InstanceRecord, action: BidAction): bigint {
  const latest = new Map<string, bigint>();
  for (const b of record.bids) latest.set(b.auctionId, BigInt(b.amount));
  latest.set(action.auctionId, action.amount);
  let sum = 0n;
  for (const v of latest.values()) sum += v;
  return sum;
}

export async function executeBid(
  deps: ExecutorDeps,
  record: InstanceRecord,
  action: BidAction,
  urgent: boolean,
): Promise<BidResult> {
  if (await deps.killSwitchOn()) return { ok: false, retry: false, reason: 'kill switch is on', end: 'kill' };
  if (deps.maxBidLamports !== null && action.amount > deps.maxBidLamports) {
    return {
      ok: false,
      retry: false,
      reason: `bid ${formatSol(action.amount)} SOL is above the runner's cap`,
      end: 'cap',
    };
  }
  if (record.maxSpendLamports !== null && committedWith(record, action) > BigInt(record.maxSpendLamports)) {
    return {
      ok: false,
      retry: false,
      reason: `spend cap ${formatSol(BigInt(record.maxSpendLamports))} SOL reached`,
      end: 'cap',
    };
  }
  await deps.budget.acquire(urgent);
  const firedAt = Date.now();
  let prepared: Awaited<ReturnType<SnsAuctionClient['placeBid']>>;
  try {
    prepared = await deps.client.placeBid(action.auctionId, lamportsToSol(action.amount));
  } catch (e) {
    if (isApiError(e, 'BID_TOO_LOW')) return { ok: false, retry: true, reason: e.message };
    if (isApiError(e, 'RATE_LIMITED')) return { ok: false, retry: true, reason: `429: ${e.message}` };
    if (isApiError(e, 'AUCTION_ENDED')) return { ok: false, retry: true, reason: e.message };
    if (isApiError(e)) return { ok: false, retry: false, reason: `${e.code}: ${e.message}`, end: 'error' };
    throw e;
  }
  if (record.mode !== 'live') return { ok: true, signature: null, firedAt, landedAt: Date.now() };
  if (!deps.signer) {
    return {
      ok: false,
      retry: false,
      reason: 'live mode needs a wallet keypair (walletKeypairPath)',
      end: 'error',
    };
  }
  const tx = Transaction.from(Buffer.from(prepared.transaction, 'base64'));
  tx.sign(deps.signer.keypair);
  try {
    const confirmed = await sendAndConfirmByPolling(deps.signer.connection, tx.serialize(), prepared, {
      pollMs: 50,
      timeoutMs: 30_000,
    });
    return { ok: true, signature: confirmed.signature, firedAt, landedAt: Date.now() };
  } catch (e) {
    // Preflight or execution failed (outbid between prepare and land, auction ended): decide again.
    return { ok: false, retry: true, reason: e instanceof Error ? e.message : String(e) };
  }
}

export const solAmount = (lamports: bigint) => `${formatSol(lamports)} SOL`;
export { solToLamports };
