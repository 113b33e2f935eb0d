/**
 * The load generator of bench:api, run in its own process (forked with IPC) so that it does not
 * share an event loop with the server it measures. Each job is one autocannon run: requests are
 * drawn at random from the job's variants and signed with the API keys of the pool in turn, so
 * that no key crosses its rate limit; latencies are taken from every 2xx response (sub-ms).
 */
import autocannon from 'autocannon';
import { latencySummary } from './measure.js';

export interface RequestVariant {
  readonly path: string;
  /** JSON body (sent with content-type application/json). */
  readonly body?: string;
}

export interface LoadJob {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly variants: readonly RequestVariant[];
  /** Send an X-API-Key from the pool on every request (round robin). */
  readonly withKeys: boolean;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { n: number; p50: number; p99: number; max: number; mean: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly statusCodes: Record<string, number>;
  /** CPU ms of the load generator itself per request (warm-up included): its share of the cores. */
  readonly loadGeneratorCpuMsPerRequest: number;
}

export type LoadGeneratorMessage =
  | { readonly type: 'keys'; readonly keys: readonly string[] }
  | { readonly type: 'run'; readonly id: number; readonly job: LoadJob };

export type LoadGeneratorReply =
  | { readonly type: 'result'; readonly id: number; readonly result: LoadResult }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

let keys: readonly string[] = [];
let nextKey = 0;

async function run(job: LoadJob): Promise<LoadResult> {
  const cpuBefore = process.cpuUsage();
  const pick = () => job.variants[Math.floor(Math.random() * job.variants.length)]!;
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationSeconds,
    warmup: { connections: job.connections, duration: job.warmupSeconds },
    requests: [
      {
        method: job.method,
        setupRequest: (request) => {
          const variant = pick();
          const headers: Record<string, string> = {};
          if (job.withKeys) headers['x-api-key'] = keys[nextKey++ % keys.length]!;
          if (variant.body !== undefined) headers['content-type'] = 'application/json';
          return { ...request, path: variant.path, headers, body: variant.body ?? '' };
        },
      },
    ],
  });
  const samples: number[] = [];
  let measuring = false;
  instance.on('start', () => {
    measuring = true;
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (measuring && status >= 200 && status < 300) samples.push(ms);
  });
  const result = await instance;
  const cpu = process.cpuUsage(cpuBefore);
  const sent = result.requests.total * (1 + job.warmupSeconds / job.durationSeconds);
  const latency = latencySummary(samples);
  const mean = samples.reduce((sum, ms) => sum + ms, 0) / Math.max(1, samples.length);
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    latencyMs: { ...latency, mean: Math.round(mean * 100) / 100 },
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
    ),
    loadGeneratorCpuMsPerRequest: Math.round((cpu.user + cpu.system) / Math.max(1, sent)) / 1000,
  };
}

process.on('message', (message: LoadGeneratorMessage) => {
  if (message.type === 'keys') {
    keys = message.keys;
    return;
  }
  run(message.job).then(
    (result) => process.send?.({ type: 'result', id: message.id, result } satisfies LoadGeneratorReply),
    (err: unknown) =>
      process.send?.({ type: 'error', id: message.id, message: String(err) } satisfies LoadGeneratorReply),
  );
});
process.on('disconnect', () => process.exit(0));
