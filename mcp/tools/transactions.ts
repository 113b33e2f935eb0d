/** tx_submit (only with a configured wallet) and policy_get: the signing side of the server. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { formatSol } from '../../src/core/money.js';
import type { McpContext, SignerContext } from '../context.js';
import { count, SimulationSchema } from '../schemas.js';
import { submitPrepared } from '../signing/submit.js';
import { guarded, okResult } from '../tool-result.js';

export function registerTransactionTools(server: McpServer, ctx: McpContext): void {
  const signer = ctx.signer;
  if (signer) registerSubmit(server, ctx, signer);

  server.registerTool(
    'policy_get',
    {
      title: 'Wallet and signing policy',
      description:
        "This server's wallet and the limits tx_submit enforces before signing: max bid per auction, daily SOL cap and what is left today, the confirmation threshold, dry-run mode. canSign false means tx_submit is not offered: sign transactionBase64 elsewhere.",
      outputSchema: {
        wallet: z.string(),
        keyType: z.string(),
        canSign: z.boolean(),
        dryRun: z.boolean(),
        maxBidSol: z.string().nullable(),
        dailySpendCapSol: z.string().nullable(),
        spentTodaySol: z.string().nullable(),
        confirmAboveSol: z.string().nullable(),
        allowedPrograms: z.array(z.string()),
      },
      annotations: { readOnlyHint: true, openWorldHint: false, title: 'Wallet and signing policy' },
    },
    () =>
      guarded('policy_get', async () => {
        const p = signer?.policy;
        const spent = signer ? await signer.ledger.spentToday() : null;
        return okResult({
          wallet: ctx.me.walletAddress,
          keyType: ctx.me.type,
          canSign: signer !== null,
          dryRun: p?.dryRun ?? false,
          maxBidSol: p ? formatSol(p.maxBidLamports) : null,
          dailySpendCapSol: p ? formatSol(p.dailyCapLamports) : null,
          spentTodaySol: spent === null ? null : formatSol(spent),
          confirmAboveSol: p ? formatSol(p.confirmAboveLamports) : null,
          allowedPrograms: p ? [...p.allowedPrograms] : [],
        });
      }),
  );
}

function registerSubmit(server: McpServer, ctx: McpContext, signer: SignerContext): void {
  server.registerTool(
    'tx_submit',
    {
      title: 'Sign and send a prepared transaction',
      description:
        `SPENDS SOL from wallet ${signer.address}. Signs exactly the transaction prepared by auction_create, bid_place or auction_cancel (by preparedId; it is not rebuilt), sends it and waits for confirmation. ` +
        'Before signing it re-simulates and enforces the policy (policy_get): fee payer must be this wallet, only allowlisted programs, bid at most MAX_BID_SOL, daily SOL cap, user confirmation above a threshold, dry-run mode. A refusal signs nothing and says why.',
      inputSchema: {
        preparedId: z.string().min(1).max(64).describe('from auction_create, bid_place or auction_cancel'),
      },
      outputSchema: {
        status: z.enum(['confirmed', 'dry_run']).describe('dry_run: simulated only, nothing signed or sent'),
        preparedId: z.string(),
        signature: z.string().nullable(),
        slot: count.nullable(),
        outflowSol: z.string().describe('SOL that left (or would leave) the wallet, fee included'),
        spentTodaySol: z.string().nullable(),
        simulation: SimulationSchema,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
        title: 'Sign and send a prepared transaction',
      },
    },
    ({ preparedId }, extra) =>
      guarded('tx_submit', async () => {
        const out = await submitPrepared({ ctx, signer, server, signal: extra.signal }, preparedId);
        if (out.status === 'dry_run') {
          return okResult(
            {
              status: 'dry_run',
              preparedId,
              signature: null,
              slot: null,
              outflowSol: out.outflowSol,
              spentTodaySol: null,
              simulation: out.simulation,
            },
            `DRY_RUN is on: simulated only (would move ${out.outflowSol} SOL); nothing was signed or sent. Do not retry.`,
          );
        }
        return okResult(
          {
            status: 'confirmed',
            preparedId,
            signature: out.signature,
            slot: out.slot,
            outflowSol: out.outflowSol,
            spentTodaySol: out.spentTodaySol,
            simulation: null,
          },
          `Confirmed ${out.signature}: ${out.outflowSol} SOL left the wallet. Call auction_get to see the result.`,
        );
      }),
  );
}
