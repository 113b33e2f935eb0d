import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createDeps, type Deps } from '../../src/composition.js';
import { parseConfig } from '../../src/config.js';
import { type App, buildApp } from '../../src/http/app.js';
import { type Indexer, startIndexer } from '../../src/indexer/indexer.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { deleteKeysWithPrefix } from './redis.js';

export interface TestApi {
  /** e.g. http://127.0.0.1:43121/api/v1 */
  readonly baseUrl: string;
  readonly app: App;
  readonly deps: Deps;
  readonly localnet: Localnet;
  /** The indexer, when started with `indexer: true`; wait on `caughtUp(signature)` after a transaction. */
  readonly indexer: Indexer | null;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** Reuse a localnet (e.g. two API instances on one chain); otherwise one is started. */
  readonly localnet?: Localnet;
  /** Share a Redis prefix with another instance (shared limits); otherwise unique per call. */
  readonly redisPrefix?: string;
  readonly env?: Record<string, string>;
  /** Secret of hidden-reserve salts; instances of one deployment (shared prefix) share it. */
  readonly reserveSecret?: string;
  /** JSON-RPC URL the API uses instead of the localnet's own (e.g. a recording proxy in front of it). */
  readonly rpcUrl?: string;
  /** Wall clock of the rate limiter (Unix ms); a test moves it to cross a minute without waiting. */
  readonly nowMs?: () => number;
  /** Runs the indexer over the API's deps (GET /auctions reads its index). */
  readonly indexer?: boolean;
}

/** A real API over real HTTP: localnet on port 0, the run's Redis with a private prefix, port 0. */
export async function startTestApi(name: string, options: TestApiOptions = {}): Promise<TestApi> {
  const localnet = options.localnet ?? (await startLocalnet({ rpcPort: 0, wsPort: 0 }));
  const config = parseConfig(
    { LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...options.env },
    'test',
  );
  const deps = await createDeps({
    config,
    redisUrl: inject('redisUrl'),
    redisPrefix: options.redisPrefix ?? `test:${name}:${randomUUID().slice(0, 8)}:`,
    logger: pino({ level: 'silent' }),
    ...(options.nowMs ? { nowMs: options.nowMs } : {}),
    chain: {
      rpcUrl: options.rpcUrl ?? localnet.rpcUrl,
      wsUrl: localnet.wsUrl,
      keeper: localnet.keeper,
      reserveSecret: options.reserveSecret ?? randomBytes(32).toString('hex'),
    },
  });
  const indexer = options.indexer
    ? startIndexer({
        connection: deps.connection,
        redis: deps.redis,
        keys: deps.keys,
        index: deps.auctionIndex,
      })
    : null;
  const app = await buildApp(deps);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `${address}/api/v1`,
    app,
    deps,
    localnet,
    indexer,
    async close() {
      await app.close();
      await indexer?.stop();
      // On a connection of its own: the service's fail-fast client may be reconnecting (a test
      // that took Redis away), and refuses commands until it is writable again.
      const cleaner = deps.redis.duplicate();
      try {
        if (cleaner.status !== 'ready') await cleaner.connect();
        await deleteKeysWithPrefix(cleaner, deps.keys.prefix);
      } finally {
        cleaner.disconnect();
      }
      await deps.close();
      if (!options.localnet) await localnet.close();
    },
  };
}

export interface ApiResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: { success: boolean; data: T; error?: string; code?: string; timestamp: number };
}

/** fetch + JSON, the way an external client calls us. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['X-API-Key'] = options.key;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as ApiResponse<T>['body'],
  };
}
