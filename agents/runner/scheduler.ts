/**
 * The instance schedule in BullMQ: one job per instance (`jobId: inst_<id>`), delayed until the
 * instance's next wake-up. The processor re-schedules the same job with `moveToDelayed` +
 * `DelayedError` (no attempt used), so a schedule lives in Redis and survives any runner restart.
 * Events wake an instance early by promoting its delayed job.
 */
import { type ConnectionOptions, DelayedError, type Job, Queue, Worker } from 'bullmq';
import type { RedisKeys } from '../../src/redis/keys.js';

export const AGENTS_QUEUE = 'agents-eval';
export const instanceJobId = (instanceId: string) => `inst_${instanceId}`;

export interface EvalJob {
  readonly instanceId: string;
}

const connection = (url: string): ConnectionOptions => ({ url, maxRetriesPerRequest: null });

export function createAgentsQueue(redisUrl: string, keys: RedisKeys): Queue<EvalJob> {
  return new Queue<EvalJob>(AGENTS_QUEUE, {
    connection: connection(redisUrl),
    prefix: keys.bullPrefix,
    defaultJobOptions: {
      removeOnComplete: true,
      removeOnFail: { count: 1000 },
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
    },
  });
}

/** Adds the instance's job (a no-op while it exists), due after `delayMs`. */
export async function scheduleInstance(
  queue: Queue<EvalJob>,
  instanceId: string,
  delayMs = 0,
): Promise<void> {
  await queue.add('eval', { instanceId }, { jobId: instanceJobId(instanceId), delay: Math.max(0, delayMs) });
}

/** Runs a delayed instance now (an event arrived); a running or missing job is left alone. */
export async function wakeInstance(queue: Queue<EvalJob>, instanceId: string): Promise<void> {
  const job = await queue.getJob(instanceJobId(instanceId));
  if (job && (await job.isDelayed())) await job.promote().catch(() => undefined);
}

export async function unscheduleInstance(queue: Queue<EvalJob>, instanceId: string): Promise<void> {
  const job = await queue.getJob(instanceJobId(instanceId));
  // An active (locked) job cannot be removed: it sees the new status on its next evaluation.
  if (job) await job.remove().catch(() => undefined);
}

/** Evaluates the instance; returns the local ms of its next wake-up, or null when it is finished. */
export type EvaluateInstance = (instanceId: string) => Promise<number | null>;

export function startAgentsWorker(
  redisUrl: string,
  keys: RedisKeys,
  evaluate: EvaluateInstance,
  concurrency: number,
): Worker<EvalJob> {
  return new Worker<EvalJob>(
    AGENTS_QUEUE,
    async (job: Job<EvalJob>, token?: string) => {
      const next = await evaluate(job.data.instanceId);
      if (next === null) return;
      await job.moveToDelayed(Math.max(next, Date.now()), token);
      throw new DelayedError();
    },
    {
      connection: connection(redisUrl),
      prefix: keys.bullPrefix,
      concurrency,
      // Short locks: a runner that dies mid-evaluation hands the instance over within seconds.
      lockDuration: 15_000,
      stalledInterval: 5_000,
      maxStalledCount: 100,
    },
  );
}
