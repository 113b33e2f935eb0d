/**
 * Builds a runner from its config file: API client (rate-limit headers feed the bid budget),
 * wallet, Redis, chain clock, shared views, executor, BullMQ worker, and the control module.
 * The CLI, the tests and the benchmark all start runners through here.
 */
import { type Connection, type Keypair, Connection as Web3Connection } from '@solana/web3.js';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ChainClock } from '../../src/chain/chain-clock.js';
import { readKeypairFile } from '../../src/chain/keypair-file.js';
import { type AuctionDetail, SnsAuctionClient } from '../../src/client/sns-auction-client.js';
import { solToLamports } from '../../src/core/money.js';
import { connectRedis } from '../../src/redis/client.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import { BID_BUDGET_POLICY, type BudgetPolicy } from '../budget/bid-budget.js';
import { RedisBidBudget } from '../budget/redis-bid-budget.js';
import { OffsetChainClock } from './chain-clock.js';
import { type AgentsControl, createAgentsControl } from './control.js';
import { watchEventStream } from './event-watcher.js';
import { StrategySpecSchema } from './instance-store.js';
import { Runner, type RunnerEvent } from './runner.js';
import { createAgentsQueue } from './scheduler.js';
import { ApiViewSource } from './view-source.js';

/** How long a Clock sysvar reading answers the instances polling it before a timed bid. */
const CHAIN_TIME_MAX_AGE_MS = 40;

const chainTimeOf = (clock: ChainClock) => ({ nowMs: async () => Number(await clock.now()) * 1000 });

export const RunnerConfigSchema = z.object({
  apiUrl: z.string().url().describe('REST API base URL including /api/v1'),
  apiKey: z.string().min(1).describe('agent or developer key; its wallet is the bidder'),
  walletKeypairPath: z
    .string()
    .optional()
    .describe('solana-keygen JSON file of the key’s wallet (live mode)'),
  rpcUrl: z
    .string()
    .url()
    .optional()
    .describe('Solana JSON-RPC: sends live bids and reads the chain clock for timed bids'),
  redisUrl: z.string().default('redis://127.0.0.1:6379'),
  redisPrefix: z.string().default('sns:'),
  serviceRedisPrefix: z
    .string()
    .optional()
    .describe(
      "the service's Redis prefix: react to its indexer's event stream (same Redis); otherwise poll only",
    ),
  pollMs: z.number().int().min(100).default(2000),
  leadMs: z.number().int().min(0).default(1500),
  fireDelayMs: z
    .number()
    .int()
    .min(0)
    .default(450)
    .describe('fire this long after a planned chain second (slot lag)'),
  concurrency: z.number().int().min(1).max(1000).default(50),
  viewMaxAgeMs: z
    .number()
    .int()
    .min(0)
    .default(1000)
    .describe('reuse an auction view this long (events drop it at once); keyed reads are 1000/min per key'),
  maxBidSol: z.number().positive().optional().describe('hard cap on any single bid'),
  strategies: z.array(StrategySpecSchema).default([]),
});
export type RunnerConfig = z.input<typeof RunnerConfigSchema>;

export interface RuntimeOptions {
  /** Wall clock of the bid budget (tests align it with the API's rate-limit clock). */
  readonly budgetNowMs?: () => number;
  readonly budgetPolicy?: BudgetPolicy;
  readonly keypair?: Keypair;
  readonly onEvent?: (e: RunnerEvent) => void;
  /** Every API answer (status + rate-limit headers), after the budget saw it. */
  readonly onResponse?: (info: { method: string; path: string; status: number }) => void;
  /** Every auction detail the runner fetched (e.g. `HistoryRecorder.observe`). */
  readonly onDetail?: (detail: AuctionDetail) => void;
  readonly onEvaluated?: (instanceId: string, latenessMs: number | null, durationMs: number) => void;
}

export interface Runtime {
  readonly runner: Runner;
  readonly control: AgentsControl;
  readonly client: SnsAuctionClient;
  readonly budget: RedisBidBudget;
  readonly redis: Redis;
  readonly wallet: string;
  close(force?: boolean): Promise<void>;
}

export async function startRuntime(input: RunnerConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const cfg = RunnerConfigSchema.parse(input);
  const redis = await connectRedis(cfg.redisUrl);
  // Errors surface on the commands that fail (an evaluation is retried); no unhandled 'error' events.
  redis.on('error', () => undefined);
  const keys = createRedisKeys(cfg.redisPrefix);
  let budget: RedisBidBudget | null = null;
  const client = new SnsAuctionClient({
    baseUrl: cfg.apiUrl,
    apiKey: cfg.apiKey,
    onResponse: (info) => {
      if (info.rateLimit && info.method === 'POST' && info.path.endsWith('/bid'))
        void budget?.observe(info.rateLimit).catch(() => undefined);
      options.onResponse?.(info);
    },
  });
  const me = await client.me();
  budget = new RedisBidBudget(
    redis,
    keys,
    me.id,
    options.budgetPolicy ?? BID_BUDGET_POLICY,
    options.budgetNowMs,
  );
  const keypair =
    options.keypair ?? (cfg.walletKeypairPath ? await readKeypairFile(cfg.walletKeypairPath) : undefined);
  if (keypair && keypair.publicKey.toBase58() !== me.walletAddress) {
    throw new Error(
      `walletKeypairPath: the keypair is ${keypair.publicKey.toBase58()}, the key's wallet is ${me.walletAddress}`,
    );
  }
  const rpc = cfg.rpcUrl ? new Web3Connection(cfg.rpcUrl, 'confirmed') : null;
  const connection: Connection | null = keypair ? rpc : null;
  const clock = new OffsetChainClock();
  const store = { killSwitchOn: async () => (await redis.exists(keys.agents('kill-switch'))) === 1 };
  const views = new ApiViewSource(client, me.walletAddress, clock, cfg.viewMaxAgeMs, options.onDetail);
  const runner = new Runner({
    redis,
    redisUrl: cfg.redisUrl,
    keys,
    wallet: me.walletAddress,
    views,
    clock,
    executor: {
      client,
      budget,
      signer: keypair && connection ? { keypair, connection } : null,
      killSwitchOn: store.killSwitchOn,
      maxBidLamports: cfg.maxBidSol === undefined ? null : solToLamports(cfg.maxBidSol),
    },
    pollMs: cfg.pollMs,
    leadMs: cfg.leadMs,
    fireDelayMs: cfg.fireDelayMs,
    // The chain's own Clock sysvar over RPC, one read in flight shared by every waiting instance.
    ...(rpc ? { chainTime: chainTimeOf(new ChainClock(rpc, CHAIN_TIME_MAX_AGE_MS)) } : {}),
    concurrency: cfg.concurrency,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onEvaluated ? { onEvaluated: options.onEvaluated } : {}),
  });
  const control = await createAgentsControl({ redisUrl: cfg.redisUrl, redisPrefix: cfg.redisPrefix });
  runner.start();
  const queue = cfg.serviceRedisPrefix === undefined ? null : createAgentsQueue(cfg.redisUrl, keys);
  const watcher =
    queue && cfg.serviceRedisPrefix !== undefined
      ? watchEventStream({
          reader: await connectRedis(cfg.redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: true }),
          serviceKeys: createRedisKeys(cfg.serviceRedisPrefix),
          queue,
          views,
          watchers: runner.watchers,
        })
      : null;
  return {
    runner,
    control,
    client,
    budget,
    redis,
    wallet: me.walletAddress,
    async close(force = false) {
      await watcher?.stop();
      await runner.close(force);
      await queue?.close();
      await control.close();
      await redis.quit();
    },
  };
}
