import { cpus as cpus_, totalmem } from 'node:os';

/** Small measuring helpers shared by the benchmark scripts. */

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const i = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, i)]!;
}

export function latencySummary(samplesMs: readonly number[]) {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
}

/** Runs `task` over `items` with at most `concurrency` in flight. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, i: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return results;
}

export function progress(message: string): void {
  process.stderr.write(`  … ${message}\n`);
}

export function machineDescription(): string {
  const cpus = cpus_();
  return `${process.platform} ${process.arch}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}
