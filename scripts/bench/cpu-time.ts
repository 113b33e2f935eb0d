/**
 * CPU time used so far by the pieces of bench:events that run outside the bench process, to tell
 * which one saturates: redis-server (INFO cpu) and a child process (/proc/<pid>/stat, Linux).
 */
import { readFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';

/** Seconds of CPU redis-server has used (user + system, all its threads). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** Seconds of CPU process `pid` has used (user + system), NaN where /proc is not available. */
export async function processCpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
