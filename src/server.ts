/**
 * Production entry (`npm start`): the API alone, against external Redis and RPC. Refuses to start
 * without REDIS_URL, SOLANA_RPC_URL, KEEPER_KEYPAIR and RESERVE_SECRET. The worker (indexer and
 * keeper) runs as its own process: `npm run worker`.
 */
import { buildApp } from './http/app.js';
import { exitOnStartupFailure, productionDeps, stopOnSignals } from './production.js';

async function main(): Promise<void> {
  const deps = await productionDeps();
  const app = await buildApp(deps);
  await app.listen({ port: deps.config.port, host: deps.config.host });
  stopOnSignals(deps, () => app.close(), 10_000);
}

main().catch(exitOnStartupFailure('sns-auction'));
