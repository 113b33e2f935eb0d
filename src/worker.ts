/**
 * Production worker entry (`npm run worker`): indexer and keeper against external Redis and RPC.
 * Needs the same configuration as `npm start`.
 */
import { readKeypairFile } from './chain/keypair-file.js';
import { createDeps } from './composition.js';
import { ConfigError, parseConfig } from './config.js';
import { startWorker } from './worker/start-worker.js';

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
  const worker = startWorker(deps);
  deps.logger.info('worker started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    deps.logger.info({ signal }, 'worker shutting down');
    const deadline = setTimeout(() => process.exit(1), 15_000).unref();
    await worker.stop();
    await deps.close();
    clearTimeout(deadline);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `sns-auction worker: ${err.message}` : err);
  process.exit(1);
});
