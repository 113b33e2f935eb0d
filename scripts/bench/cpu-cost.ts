/**
 * CPU time per request, of the API process (this process) and of Redis (INFO cpu), over a load
 * run: unlike throughput and latency, it barely moves when other work shares the machine, so it
 * tells whether a change made a request cheaper even on a busy machine.
 */
import type { Redis } from 'ioredis';

export interface CpuSnapshot {
  readonly processUs: number;
  readonly redisUs: number;
}

async function redisCpuUs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (field: string) => Number(new RegExp(`${field}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

export async function cpuSnapshot(redis: Redis): Promise<CpuSnapshot> {
  const { user, system } = process.cpuUsage();
  return { processUs: user + system, redisUs: await redisCpuUs(redis) };
}

/** Milliseconds of CPU per request between two snapshots that saw `requests` requests. */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number) {
  const per = (us: number) => Math.round((us / Math.max(1, requests) / 1000) * 1000) / 1000;
  return {
    apiMs: per(after.processUs - before.processUs),
    redisMs: per(after.redisUs - before.redisUs),
  };
}
