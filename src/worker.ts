/**
 * Production worker entry (`npm run worker`): indexer and keeper against external Redis and RPC.
 * Needs the same configuration as `npm start`.
 */
import { exitOnStartupFailure, productionDeps, stopOnSignals } from './production.js';
import { startWorker } from './worker/start-worker.js';

async function main(): Promise<void> {
  const deps = await productionDeps();
  const worker = startWorker(deps);
  deps.logger.info('worker started');
  stopOnSignals(deps, () => worker.stop(), 15_000);
}

main().catch(exitOnStartupFailure('sns-auction worker'));
