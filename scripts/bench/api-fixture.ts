/**
 * The system under test of bench:api, wired as production wires it (`npm start`): a private
 * redis-server, the localnet in its own process (the remote RPC), the API built by `createDeps` +
 * `buildApp` in this process on a loopback port, and beside it the baseline: a bare fastify route
 * that does one Redis GET on the same Redis connection.
 */
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

export interface ApiFixture {
  readonly deps: Deps;
  /** e.g. http://127.0.0.1:41234 (routes under /api/v1). */
  readonly apiUrl: string;
  readonly apiPrefix: string;
  /** The baseline: GET {baselineUrl}/baseline. */
  readonly baselineUrl: string;
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly redisUrl: string;
  /** The production environment the API was configured from (for child processes such as the worker). */
  readonly env: Readonly<Record<string, string>>;
  /** API keys (agent) spread over `wallets`, created straight in the key store. */
  createKeys(count: number, wallets: readonly string[]): Promise<string[]>;
  /** The same, with each key's id. */
  createKeyRecords(count: number, wallets: readonly string[]): Promise<{ id: string; key: string }[]>;
  /** Runs `closer` on close, before everything the fixture started. */
  onClose(closer: () => Promise<unknown>): void;
  close(): Promise<void>;
}

export interface ApiFixtureOptions {
  /** More environment for the production configuration, e.g. WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  readonly env?: Readonly<Record<string, string>>;
}

const BASELINE_KEY = 'bench:baseline';

export async function startApiFixture(options: ApiFixtureOptions = {}): Promise<ApiFixture> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const redisServer = await spawnRedisServer();
    closers.push(() => redisServer.stop());
    const dir = await mkdtemp(join(tmpdir(), 'bench-api-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const keeperFile = join(dir, 'keeper.json');
    const { keypair: keeper } = await readOrCreateKeypairFile(keeperFile);
    const localnet = await startLocalnetProcess(['--keeper', keeperFile]);
    closers.push(() => localnet.stop());

    const reserveSecret = randomBytes(32).toString('hex');
    // Production configuration; warn-level logs (no per-request lines), to stderr: stdout is the summary.
    const env: Record<string, string> = {
      REDIS_URL: redisServer.url,
      REDIS_PREFIX: 'bench:',
      SOLANA_RPC_URL: localnet.rpcUrl,
      SOLANA_WS_URL: localnet.wsUrl,
      KEEPER_KEYPAIR: keeperFile,
      RESERVE_SECRET: reserveSecret,
      LOG_LEVEL: 'warn',
      ...options.env,
    };
    const config = parseConfig(env, 'production');
    const deps = await createDeps({
      config,
      redisUrl: redisServer.url,
      logger: pino({ level: config.logLevel }, pino.destination(2)),
      chain: { rpcUrl: localnet.rpcUrl, wsUrl: localnet.wsUrl, keeper, reserveSecret },
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

    const createKeyRecords = (count: number, wallets: readonly string[]) =>
      mapConcurrent(
        Array.from({ length: count }, (_, i) => i),
        32,
        async (i) => {
          const { key, record } = await deps.apiKeys.create(
            { name: `bench ${i}`, type: 'agent', walletAddress: wallets[i % wallets.length]! },
            config.cluster === 'mainnet-beta' ? 'live' : 'test',
            Date.now(),
          );
          return { id: record.id, key };
        },
      );
    return {
      deps,
      apiUrl,
      apiPrefix: API_PREFIX,
      baselineUrl,
      rpcUrl: localnet.rpcUrl,
      wsUrl: localnet.wsUrl,
      redisUrl: redisServer.url,
      env,
      createKeys: async (count, wallets) => (await createKeyRecords(count, wallets)).map((k) => k.key),
      createKeyRecords,
      onClose: (closer) => closers.push(closer),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
