/** Starts scripts/bench/events-receivers.ts in a child process and talks to it over IPC. */
import { fork } from 'node:child_process';
import type { ReceiversMessage, ReceiversReply, Reception } from './events-receivers.js';

export interface ReceiversProcess {
  /** Base URLs of the receiving servers (subscriptions add their own path). */
  readonly urls: readonly string[];
  /** Every request received since the start (or the last reset). */
  collect(): Promise<readonly Reception[]>;
  reset(): void;
  stop(): void;
}

export async function startReceiversProcess(servers: number): Promise<ReceiversProcess> {
  const child = fork(new URL('./events-receivers.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const send = (message: ReceiversMessage) => child.send(message);
  const next = <T extends ReceiversReply['type']>(type: T) =>
    new Promise<Extract<ReceiversReply, { type: T }>>((resolve, reject) => {
      const onMessage = (reply: ReceiversReply) => {
        if (reply.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply as Extract<ReceiversReply, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`receivers exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const started = next('started');
  send({ type: 'start', servers });
  const { urls } = await started;
  return {
    urls,
    collect: async () => {
      const collected = next('collected');
      send({ type: 'collect' });
      return (await collected).receptions;
    },
    reset: () => send({ type: 'reset' }),
    stop: () => {
      if (child.connected) child.disconnect();
    },
  };
}
