/**
 * The strategy runner's controls (agents/): start, list and stop bidding strategies. They only
 * write to the runner's Redis; a runner process on the same prefix (`npm run agents -- run`)
 * carries the instances out with its own wallet. Live instances spend that wallet's SOL outside
 * tx_submit's policy, so they are refused unless the operator allows them, and then only with a
 * spend cap within DAILY_SPEND_CAP_SOL.
 */
import { z } from 'zod';
import type { AgentsControl, InstanceSummary } from '../../agents/runner/control.js';
import { StrategyConfigError } from '../../agents/runner/control.js';
import { BUILTIN_STRATEGIES } from '../../agents/strategies/index.js';
import { formatSol, type Lamports, solToLamports } from '../../src/core/money.js';
import { ToolFailure } from '../errors.js';
import { isoOf } from '../present.js';
import { count, iso } from '../schemas.js';
import { guarded, okResult } from '../tool-result.js';
import type { ToolRegistrar } from './registrar.js';

export interface StrategyToolsOptions {
  readonly control: AgentsControl;
  /** Operator opt-in to `live` instances (AGENTS_ALLOW_LIVE). */
  readonly allowLive: boolean;
  /** The largest `maxSpendSol` a live instance may carry (the MCP daily cap). */
  readonly maxLiveSpendLamports: Lamports;
}

const STRATEGY_NAMES = [...BUILTIN_STRATEGIES.keys()] as [string, ...string[]];

const Instance = z.object({
  id: z.string(),
  strategy: z.string(),
  mode: z.string(),
  status: z.string().describe('running, done, stopped or failed'),
  outcome: z.string().nullable().describe('won, lost or gave_up once done'),
  reason: z.string().nullable(),
  auctions: z.array(z.string()),
  bids: z.array(
    z.object({ auctionId: z.string(), amountSol: z.string(), at: iso, signature: z.string().nullable() }),
  ),
  nextWakeAt: iso.nullable().describe('chain time of the next planned decision'),
});

const view = (s: InstanceSummary) => ({
  id: s.id,
  strategy: s.strategy,
  mode: s.mode,
  status: s.status,
  outcome: s.outcome,
  reason: s.reason,
  auctions: s.auctions,
  bids: s.bids.map((b) => ({ ...b, at: isoOf(b.at) })),
  nextWakeAt: s.nextWakeAt === null ? null : isoOf(s.nextWakeAt),
});

export function strategyTools(options: StrategyToolsOptions): ToolRegistrar {
  const { control } = options;
  return (server) => {
    server.registerTool(
      'strategy_start',
      {
        title: 'Start a bidding strategy',
        description:
          `Starts a bidding strategy on the strategy runner: ${STRATEGY_NAMES.join(', ')}. ` +
          'Examples: {"strategy":"dutch-stop","config":{"auctionId":"…","stopPrice":3}} buys a Dutch auction once its price reaches 3 SOL; ' +
          '{"strategy":"late-proxy","config":{"auctionId":"…","maxBid":10}} stays silent until just before the snipe window, then outbids by the minimum up to 10 SOL. ' +
          'mode "paper" (default) decides without signing; "live" signs with the runner\'s wallet and needs maxSpendSol and operator permission. ' +
          'A config error names the field. The same id again is a no-op while it runs.',
        inputSchema: {
          strategy: z.enum(STRATEGY_NAMES),
          config: z.record(z.string(), z.unknown()).describe("the strategy's config; amounts in SOL"),
          mode: z.enum(['paper', 'live']).default('paper'),
          maxSpendSol: z.number().positive().max(1_000_000).optional().describe('cap on its standing bids'),
          id: z.string().min(1).max(64).optional().describe('instance id; default: generated'),
        },
        outputSchema: Instance.shape,
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true,
          title: 'Start a bidding strategy',
        },
      },
      (args) =>
        guarded('strategy_start', async () => {
          if (args.mode === 'live') checkLive(options, args.maxSpendSol);
          try {
            return okResult(view(await control.startStrategy(args)));
          } catch (e) {
            if (e instanceof StrategyConfigError || e instanceof z.ZodError) {
              throw new ToolFailure(`strategy_start refused: ${e.message}. Fix that field and call again.`);
            }
            throw e;
          }
        }),
    );

    server.registerTool(
      'strategies_list',
      {
        title: 'List strategies',
        description: 'Strategy instances on the runner: status, outcome, bids placed, next planned decision.',
        outputSchema: { strategies: z.array(Instance), total: count },
        annotations: { readOnlyHint: true, openWorldHint: false, title: 'List strategies' },
      },
      () =>
        guarded('strategies_list', async () => {
          const all = (await control.listStrategies()).map(view);
          return okResult({ strategies: all, total: all.length });
        }),
    );

    server.registerTool(
      'strategy_stop',
      {
        title: 'Stop a strategy',
        description:
          'Stops a strategy instance by id (from strategies_list); bids already placed stay on chain.',
        inputSchema: { id: z.string().min(1).max(64) },
        outputSchema: Instance.shape,
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
          title: 'Stop a strategy',
        },
      },
      ({ id }) =>
        guarded('strategy_stop', async () => {
          const stopped = await control.stopStrategy(id);
          if (!stopped)
            throw new ToolFailure(`strategy_stop: no instance "${id}"; call strategies_list for ids.`);
          return okResult(view(stopped));
        }),
    );
  };
}

function checkLive(options: StrategyToolsOptions, maxSpendSol: number | undefined): void {
  if (!options.allowLive) {
    throw new ToolFailure(
      'strategy_start refused: live strategies are not enabled on this server (AGENTS_ALLOW_LIVE). Start it with mode "paper", or ask the operator.',
    );
  }
  if (maxSpendSol === undefined) {
    throw new ToolFailure(
      'strategy_start refused: a live strategy needs maxSpendSol (SOL). Call again with it.',
    );
  }
  if (solToLamports(maxSpendSol) > options.maxLiveSpendLamports) {
    throw new ToolFailure(
      `strategy_start refused: maxSpendSol ${maxSpendSol} is above DAILY_SPEND_CAP_SOL ${formatSol(options.maxLiveSpendLamports)}. Lower it.`,
    );
  }
}
