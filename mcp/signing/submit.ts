/**
 * The "submit" half: re-simulate the exact prepared bytes, enforce the policy, ask the user when
 * the amount is above the confirmation threshold, reserve the spend, sign without recompiling,
 * send and confirm. Every refusal happens before the signature.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  sendAndConfirmByPolling,
  TransactionExpiredError,
  TransactionFailedError,
} from '../../src/chain/send-and-confirm.js';
import { formatSol } from '../../src/core/money.js';
import type { McpContext, SignerContext } from '../context.js';
import { ToolFailure } from '../errors.js';
import { checkSpend, checkTransactionShape } from './policy.js';
import type { PreparedTransaction } from './prepared-store.js';
import { decodeTransaction, type SimulationSummary, simulateOutflow } from './summarize.js';

export type SubmitOutcome =
  | { status: 'confirmed'; signature: string; slot: number; outflowSol: string; spentTodaySol: string }
  | { status: 'dry_run'; outflowSol: string; simulation: SimulationSummary };

interface SubmitDeps {
  readonly ctx: McpContext;
  readonly signer: SignerContext;
  readonly server: McpServer;
  readonly signal: AbortSignal;
}

export async function submitPrepared(deps: SubmitDeps, preparedId: string): Promise<SubmitOutcome> {
  const { ctx, signer, signal } = deps;
  const connection = ctx.connection;
  if (!connection) throw new ToolFailure('tx_submit needs SOLANA_RPC_URL; the operator must set it');
  const prepared = ctx.prepared.get(preparedId);
  if (!prepared) {
    throw new ToolFailure(
      `unknown or expired preparedId ${preparedId}: prepared transactions live until their blockhash expires and are signed once. Call bid_place / auction_create / auction_cancel again`,
    );
  }
  const height = await connection.getBlockHeight('confirmed');
  if (height > prepared.lastValidBlockHeight) {
    ctx.prepared.take(preparedId);
    throw new ToolFailure(`prepared transaction ${preparedId} expired (blockhash too old); prepare it again`);
  }

  const decoded = decodeTransaction(prepared.bytes);
  const shape = checkTransactionShape(signer.policy, {
    wallet: signer.address,
    feePayer: decoded.feePayer.toBase58(),
    programIds: decoded.programIds,
  });
  if (!shape.allow)
    throw new ToolFailure(`policy refused (${shape.rule}): ${shape.reason}. Nothing was signed.`);
  const { summary, outflowLamports } = await simulateOutflow(connection, decoded);
  if (!summary.ok) {
    throw new ToolFailure(
      `simulation fails now: ${summary.error}; logs: ${summary.logsTail.join(' | ')}. Nothing was signed. Call auction_get to see the auction's state, then prepare again`,
    );
  }
  const verdict = checkSpend(signer.policy, {
    kind: prepared.kind,
    declaredLamports: prepared.declaredLamports,
    outflowLamports,
    spentTodayLamports: await signer.ledger.spentToday(),
  });
  if (!verdict.allow)
    throw new ToolFailure(`policy refused (${verdict.rule}): ${verdict.reason}. Nothing was signed.`);
  if (signer.policy.dryRun) {
    return { status: 'dry_run', outflowSol: formatSol(outflowLamports), simulation: summary };
  }
  if (verdict.needsConfirmation) await confirmWithUser(deps, prepared, outflowLamports);

  // Taken only now: a refused or unconfirmed transaction can still be submitted after a fix.
  if (!ctx.prepared.take(preparedId)) throw new ToolFailure(`preparedId ${preparedId} was already submitted`);
  const reserved = await signer.ledger.reserve(
    { id: preparedId, lamports: outflowLamports, kind: prepared.kind, auctionId: prepared.auctionId },
    signer.policy.dailyCapLamports,
  );
  if (!reserved.ok)
    throw new ToolFailure('policy refused (daily_cap): another submission used the remaining cap');

  decoded.tx.sign([signer.keypair]);
  try {
    const confirmed = await sendAndConfirmByPolling(
      connection,
      decoded.tx.serialize(),
      { blockhash: prepared.blockhash, lastValidBlockHeight: prepared.lastValidBlockHeight },
      { signal, timeoutMs: 60_000 },
    );
    ctx.logger.info({ signature: confirmed.signature, kind: prepared.kind }, 'transaction confirmed');
    return {
      status: 'confirmed',
      signature: confirmed.signature,
      slot: confirmed.slot,
      outflowSol: formatSol(outflowLamports),
      spentTodaySol: formatSol(reserved.spentToday),
    };
  } catch (e) {
    // Preflight refusals and expiries never landed: give the reservation back.
    if (
      (e instanceof TransactionFailedError && e.stage === 'preflight') ||
      e instanceof TransactionExpiredError
    ) {
      await signer.ledger.release(preparedId);
    }
    if (e instanceof TransactionFailedError) {
      throw new ToolFailure(
        `the transaction failed (${e.stage}): ${e.message}; logs: ${e.logs.slice(-4).join(' | ')}. Call auction_get and prepare again`,
      );
    }
    if (e instanceof TransactionExpiredError) throw new ToolFailure(`${e.message}; prepare it again`);
    throw e;
  }
}

async function confirmWithUser(deps: SubmitDeps, p: PreparedTransaction, outflow: bigint): Promise<void> {
  const threshold = formatSol(deps.signer.policy.confirmAboveLamports);
  if (!deps.server.server.getClientCapabilities()?.elicitation) {
    throw new ToolFailure(
      `policy refused (confirmation): ${formatSol(outflow)} SOL is above CONFIRM_ABOVE_SOL ${threshold} SOL and this client cannot ask the user (no elicitation support). Nothing was signed; the operator may raise CONFIRM_ABOVE_SOL`,
    );
  }
  const answer = await deps.server.server.elicitInput(
    {
      mode: 'form',
      message: `Sign ${p.kind} on auction ${p.auctionId}? It moves ${formatSol(outflow)} SOL out of wallet ${deps.signer.address} (above your ${threshold} SOL confirmation threshold).`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Sign and send', description: 'true to sign' } },
        required: ['confirm'],
      },
    },
    { signal: deps.signal },
  );
  if (answer.action !== 'accept' || answer.content?.['confirm'] !== true) {
    throw new ToolFailure(
      `the user declined to sign ${p.kind} (${answer.action}). Nothing was signed; do not retry without asking`,
    );
  }
}
