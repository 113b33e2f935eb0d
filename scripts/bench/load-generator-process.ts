/** Starts scripts/bench/load-generator.ts in a child process and runs jobs on it, one at a time. */
import { fork } from 'node:child_process';
import type { LoadGeneratorMessage, LoadGeneratorReply, LoadJob, LoadResult } from './load-generator.js';

export interface LoadGenerator {
  setKeys(keys: readonly string[]): void;
  run(job: LoadJob): Promise<LoadResult>;
  stop(): void;
}

export function startLoadGenerator(): LoadGenerator {
  const child = fork(new URL('./load-generator.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  child.on('message', (reply: LoadGeneratorReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.type === 'result') waiter?.resolve(reply.result);
    else waiter?.reject(new Error(`load generator: ${reply.message}`));
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`load generator exited (${code})`));
    pending.clear();
  });
  const send = (message: LoadGeneratorMessage) => child.send(message);
  return {
    setKeys: (keys) => send({ type: 'keys', keys }),
    run: (job) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send({ type: 'run', id, job });
      }),
    stop: () => {
      if (child.connected) child.disconnect();
    },
  };
}
