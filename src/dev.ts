/**
 * `npm run dev`: the whole service on one machine with embedded defaults — a private Redis
 * (spawned from redis-server, data in DATA_DIR/redis), the embedded localnet on LOCALNET_PORT
 * (snapshot in DATA_DIR/chain.json), the API, the worker, and demo wallets, domains and auctions.
 * Set REDIS_URL or SOLANA_RPC_URL to use external ones instead.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readOrCreateKeypairFile } from './chain/keypair-file.js';
import { createDeps } from './composition.js';
import { ConfigError, parseConfig } from './config.js';
import { seedDemo } from './dev/seed-demo.js';
import { API_PREFIX, buildApp } from './http/app.js';
import { type Localnet, startLocalnet } from './localnet/index.js';
import {
  RedisServerNotInstalledError,
  type SpawnedRedis,
  spawnRedisServer,
} from './redis/spawn-redis-server.js';
import { startWorker } from './worker/start-worker.js';

async function reserveSecret(dataDir: string, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const file = join(dataDir, 'reserve-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(32).toString('hex');
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

async function main(): Promise<void> {
  const config = parseConfig(process.env, 'dev');
  await mkdir(config.dataDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];

  let redisUrl = config.redisUrl;
  if (!redisUrl) {
    await mkdir(join(config.dataDir, 'redis'), { recursive: true });
    const redis: SpawnedRedis = await spawnRedisServer({ appendOnlyDir: join(config.dataDir, 'redis') });
    cleanups.unshift(() => redis.stop());
    redisUrl = redis.url;
  }

  const { keypair: keeper } = await readOrCreateKeypairFile(
    config.keeperKeypairPath ?? join(config.dataDir, 'keeper.json'),
  );
  let localnet: Localnet | null = null;
  let rpcUrl = config.solanaRpcUrl;
  let wsUrl = config.solanaWsUrl;
  if (!rpcUrl) {
    localnet = await startLocalnet({
      rpcPort: config.localnetPort,
      keeper,
      snapshotFile: join(config.dataDir, 'chain.json'),
    });
    const started = localnet;
    cleanups.unshift(() => started.close());
    rpcUrl = localnet.rpcUrl;
    wsUrl = localnet.wsUrl;
  }

  const deps = await createDeps({
    config,
    redisUrl,
    chain: {
      rpcUrl,
      wsUrl,
      keeper,
      reserveSecret: await reserveSecret(config.dataDir, config.reserveSecret),
    },
  });
  cleanups.unshift(() => deps.close());
  const app = await buildApp(deps);
  const address = await app.listen({ port: config.port, host: config.host });
  cleanups.unshift(() => app.close());
  const worker = startWorker(deps);
  cleanups.unshift(() => worker.stop());

  const baseUrl = `${address}${API_PREFIX}`;
  const chain = localnet;
  const demo = chain
    ? await seedDemo({
        baseUrl,
        registerDomain: (name, owner) => chain.registerDomain(name, owner),
        connection: deps.connection,
        dataDir: config.dataDir,
        logger: deps.logger,
      })
    : null;

  console.log(`
sns-auction is running (dev mode)
  API         ${baseUrl}            docs: ${baseUrl}/docs
  chain       ${rpcUrl}${localnet ? '   (embedded localnet; time warp: localnet_warpTime)' : ''}
  Redis       ${redisUrl}
  keeper      ${keeper.publicKey.toBase58()}
${demo ? `  demo        ${demo.auctions.length} auctions; wallets and their API keys in ${join(config.dataDir, 'demo.json')}\n` : ''}
Try it:
  curl -s ${baseUrl}/auctions | head -c 600; echo
  curl -s -X POST ${baseUrl}/keys/create -H 'content-type: application/json' \\
    -d '{"name":"my bot","type":"agent","walletAddress":"<your wallet address>"}'
`);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    for (const cleanup of cleanups) await cleanup().catch((err) => console.error(err));
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof RedisServerNotInstalledError)
    console.error(`sns-auction: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
