/** What the production entries (`npm start`, `npm run worker`) share: strict config, deps, shutdown. */
import { readKeypairFile } from './chain/keypair-file.js';
import { createDeps, type Deps } from './composition.js';
import { ConfigError, parseConfig } from './config.js';

/** Deps from the environment in production mode (refuses to start without the external pieces). */
export async function productionDeps(): Promise<Deps> {
  const config = parseConfig(process.env, 'production');
  return createDeps({
    config,
    redisUrl: config.redisUrl!,
    chain: {
      rpcUrl: config.solanaRpcUrl!,
      wsUrl: config.solanaWsUrl,
      keeper: await readKeypairFile(config.keeperKeypairPath!),
      reserveSecret: config.reserveSecret!,
    },
  });
}

/** Runs `stop` once on SIGINT/SIGTERM, exiting non-zero if it takes longer than `graceMs`. */
export function stopOnSignals(deps: Deps, stop: () => Promise<void>, graceMs: number): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    deps.logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => process.exit(1), graceMs).unref();
    await stop();
    await deps.close();
    clearTimeout(deadline);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

export function exitOnStartupFailure(name: string): (err: unknown) => never {
  return (err) => {
    console.error(err instanceof ConfigError ? `${name}: ${err.message}` : err);
    process.exit(1);
  };
}
