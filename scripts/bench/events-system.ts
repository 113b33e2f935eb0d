/**
 * The system under test of bench:events, wired as deployed: a private redis-server, the localnet in
 * its own process (the remote RPC), the worker in its own process (`src/worker.ts`: indexer,
 * keeper, analytics consumer, webhook fan-out and delivery, as `npm run worker` runs it), and the
 * API (`createDeps` + `buildApp`, production configuration) in this process on a loopback port,
 * next to the API benchmark's baseline: a bare fastify route doing one Redis GET on the API's
 * own Redis connection. Webhook targets on loopback are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS, as
 * in dev): the receivers run on 127.0.0.1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { pino } from 'pino';
import { readOrCreateKeypairFile } from '../../src/chain/keypair-file.js';
import { createDeps, type Deps } from '../../src/composition.js';
import { parseConfig } from '../../src/config.js';
import { API_PREFIX, buildApp } from '../../src/http/app.js';
import { spawnRedisServer } from '../../src/redis/spawn-redis-server.js';
import { startLocalnetProcess } from './localnet-process.js';
import { mapConcurrent } from './measure.js';

export interface EventsSystem {
  readonly deps: Deps;
  /** e.g. http://127.0.0.1:41234/api/v1 */
  readonly apiBase: string;
  readonly apiUrl: string;
  readonly baselineUrl: string;
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly redisUrl: string;
  /** Starts `src/worker.ts` in its own process; stopping it waits for its graceful exit. */
  startWorker(): WorkerProcess;
  /** API keys (agent) spread over `wallets`, created straight in the key store. */
  createKeys(count: number, wallets: readonly string[]): Promise<{ id: string; key: string }[]>;
  close(): Promise<void>;
}

export interface WorkerProcess {
  readonly pid: number;
  stop(): Promise<void>;
}

const BASELINE_KEY = 'bench:baseline';
export const BENCH_PREFIX = 'bench:';

export async function startEventsSystem(): Promise<EventsSystem> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const redisServer = await spawnRedisServer();
    closers.push(() => redisServer.stop());
    const dir = await mkdtemp(join(tmpdir(), 'bench-events-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const keeperFile = join(dir, 'keeper.json');
    const { keypair: keeper } = await readOrCreateKeypairFile(keeperFile);
    const localnet = await startLocalnetProcess(['--keeper', keeperFile]);
    closers.push(() => localnet.stop());

    const env: Record<string, string> = {
      REDIS_URL: redisServer.url,
      REDIS_PREFIX: BENCH_PREFIX,
      SOLANA_RPC_URL: localnet.rpcUrl,
      SOLANA_WS_URL: localnet.wsUrl,
      KEEPER_KEYPAIR: keeperFile,
      RESERVE_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    };
    const config = parseConfig(env, 'production');
    const deps = await createDeps({
      config,
      redisUrl: redisServer.url,
      logger: pino({ level: config.logLevel }, pino.destination(2)),
      chain: {
        rpcUrl: localnet.rpcUrl,
        wsUrl: localnet.wsUrl,
        keeper,
        reserveSecret: env['RESERVE_SECRET']!,
      },
    });
    closers.push(() => deps.close());
    const app = await buildApp(deps);
    closers.push(() => app.close());
    const apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });

    await deps.redis.set(BASELINE_KEY, JSON.stringify({ status: 'ok', service: 'sns-auction' }));
    const baseline = Fastify({ logger: false });
    baseline.get('/baseline', async () => {
      const value = await deps.redis.get(BASELINE_KEY);
      return { success: true, data: value === null ? null : JSON.parse(value), timestamp: Date.now() };
    });
    closers.push(() => baseline.close());
    const baselineUrl = await baseline.listen({ port: 0, host: '127.0.0.1' });

    const workers: ChildProcess[] = [];
    closers.push(async () => {
      for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    });
    return {
      deps,
      apiUrl,
      apiBase: `${apiUrl}${API_PREFIX}`,
      baselineUrl,
      rpcUrl: localnet.rpcUrl,
      wsUrl: localnet.wsUrl,
      redisUrl: redisServer.url,
      startWorker: () => {
        // node itself (not npx), so that the signal reaches the worker and nothing is orphaned.
        // BENCH_PROFILE_DIR: the worker writes a CPU profile there when it exits.
        const profile = process.env['BENCH_PROFILE_DIR'];
        const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
        const child = spawn(process.execPath, [...profiling, '--import', 'tsx', 'src/worker.ts'], {
          env: { ...process.env, ...env },
          stdio: ['ignore', 2, 2],
        });
        workers.push(child);
        return {
          pid: child.pid ?? 0,
          stop: () =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        };
      },
      createKeys: (count, wallets) =>
        mapConcurrent(
          Array.from({ length: count }, (_, i) => i),
          32,
          async (i) => {
            const { key, record } = await deps.apiKeys.create(
              { name: `bench ${i}`, type: 'agent', walletAddress: wallets[i % wallets.length]! },
              'test',
              Date.now(),
            );
            return { id: record.id, key };
          },
        ),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
