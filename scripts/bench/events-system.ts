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
import type { Deps } from '../../src/composition.js';
import { API_PREFIX } from '../../src/http/app.js';
import { startApiFixture } from './api-fixture.js';

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

/** bench:api's fixture with loopback webhook targets allowed, plus the worker as a process. */
export async function startEventsSystem(): Promise<EventsSystem> {
  const fixture = await startApiFixture({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  const workers: ChildProcess[] = [];
  fixture.onClose(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  });
  return {
    deps: fixture.deps,
    apiUrl: fixture.apiUrl,
    apiBase: `${fixture.apiUrl}${API_PREFIX}`,
    baselineUrl: fixture.baselineUrl,
    rpcUrl: fixture.rpcUrl,
    wsUrl: fixture.wsUrl,
    redisUrl: fixture.redisUrl,
    startWorker: () => {
      // node itself (not npx), so that the signal reaches the worker and nothing is orphaned.
      // BENCH_PROFILE_DIR: the worker writes a CPU profile there when it exits.
      const profile = process.env['BENCH_PROFILE_DIR'];
      const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
      const child = spawn(process.execPath, [...profiling, '--import', 'tsx', 'src/worker.ts'], {
        env: { ...process.env, ...fixture.env },
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
    createKeys: fixture.createKeyRecords,
    close: fixture.close,
  };
}
