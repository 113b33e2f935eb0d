/**
 * Production entry (`npm start`): the API alone, against external Redis and RPC. Refuses to start
 * without REDIS_URL, SOLANA_RPC_URL, KEEPER_KEYPAIR and RESERVE_SECRET. The worker (indexer,
 * keeper, webhook deliveries) runs as its own process: `npm run worker`.
 */
import { readKeypairFile } from './chain/keypair-file.js';
import { createDeps } from './composition.js';
import { ConfigError, parseConfig } from './config.js';
import { buildApp } from './http/app.js';

async function main(): Promise<void> {
  const config = parseConfig(process.env, 'production');
  const deps = await createDeps({
    config,
    redisUrl: config.redisUrl!,
    chain: {
      rpcUrl: config.solanaRpcUrl!,
      wsUrl: config.solanaWsUrl,
      keeper: await readKeypairFile(config.keeperKeypairPath!),
      reserveSecret: config.reserveSecret!,
    },
  });
  const app = await buildApp(deps);
  await app.listen({ port: config.port, host: config.host });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    deps.logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    await deps.close();
    clearTimeout(deadline);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `sns-auction: ${err.message}` : err);
  process.exit(1);
});
