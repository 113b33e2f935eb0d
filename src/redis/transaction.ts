import type { ChainableCommander } from 'ioredis';

/**
 * Runs a MULTI and throws what went wrong inside it: ioredis resolves EXEC even when a queued
 * command failed (e.g. INCR on a non-numeric value), reporting the error in its results, and
 * resolves null when the transaction was aborted.
 */
export async function execTransaction(multi: ChainableCommander): Promise<void> {
  const results = await multi.exec();
  if (!results) throw new Error('Redis transaction aborted');
  const failure = results.find(([error]) => error)?.[0];
  if (failure) throw failure;
}
