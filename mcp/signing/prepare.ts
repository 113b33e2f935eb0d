/**
 * The "prepare" half of prepare → submit: decode the API's unsigned transaction locally, simulate
 * it, remember its exact bytes under a preparedId, and describe it to the agent.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from '../context.js';
import { isoOf } from '../present.js';
import { okResult } from '../tool-result.js';
import type { PreparedKind } from './prepared-store.js';
import { summarizeTransaction } from './summarize.js';

export interface WalletTransaction {
  readonly transaction: string;
  readonly blockhash: string;
  readonly lastValidBlockHeight: number;
  readonly expiresAt: number;
}

export async function prepareResult(
  ctx: McpContext,
  kind: PreparedKind,
  auctionId: string,
  declaredLamports: bigint,
  receipt: string,
  tx: WalletTransaction,
  extra: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const bytes = Buffer.from(tx.transaction, 'base64');
  const { summary } = await summarizeTransaction(bytes, ctx.connection);
  const prepared = ctx.prepared.put({
    kind,
    bytes,
    auctionId,
    declaredLamports,
    blockhash: tx.blockhash,
    lastValidBlockHeight: tx.lastValidBlockHeight,
    expiresAt: tx.expiresAt,
    summary,
  });
  const simulated = summary.simulation;
  const failed = simulated !== null && !simulated.ok;
  const nextStep = failed
    ? `The simulation fails (${simulated.error}); do not submit. Read logsTail, call auction_get, and prepare again.`
    : ctx.signer
      ? `Call tx_submit with preparedId ${prepared.id} before ${isoOf(tx.expiresAt)} to sign and send it with this server's wallet.`
      : `No wallet is configured here: sign transactionBase64 with wallet ${summary.feePayer} and broadcast it before ${isoOf(tx.expiresAt)}.`;
  const outflow = simulated
    ? `, moves ${simulated.feePayerOutflowSol} SOL out of the wallet (simulated)`
    : '';
  return okResult(
    {
      preparedId: prepared.id,
      kind,
      auctionId,
      receipt,
      transactionBase64: tx.transaction,
      lastValidBlockHeight: tx.lastValidBlockHeight,
      expiresAt: isoOf(tx.expiresAt),
      transaction: summary,
      nextStep,
      ...extra,
    },
    `Prepared ${kind} (${receipt})${outflow}. ${nextStep}`,
  );
}
