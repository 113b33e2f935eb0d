/**
 * npm run bench:api — the REST API under load (autocannon, in a child process), next to a bare
 * fastify route doing one Redis GET measured in the same run as the baseline (at the start of each
 * part, and for half as long after every case, so that each case also has the baselines measured
 * right before and after it):
 *  1. GET /auctions (pageSize 20): each sort, then filters, at each index size (synthetic auctions
 *     loaded straight into the index), in several rounds: the machine's speed drifts, and a case is
 *     judged by the median of its rounds' ratios to the baselines next to it;
 *  2. GET /auctions/:id and POST /auctions/:id/bid on real auctions of the localnet.
 * Every API request carries an API key from a pool, so the numbers include authentication and the
 * rate limiter (each key stays under its limits). Progress goes to stderr, the summary (JSON) to stdout.
 * Options: --auctions 10000,100000 --rounds 3 --duration 10 --connections 10 --warmup 1 --writes 5 --keys 1000
 * --only REGEX (case names) --profile DIR (a CPU profile of the API process per case, DIR/<case>.cpuprofile)
 */
import { parseArgs } from 'node:util';
import type { Address } from '../src/core/address.js';
import { auctionStatus } from '../src/core/auction-rules/status.js';
import { listCases } from './bench/api-cases.js';
import { startApiFixture } from './bench/api-fixture.js';
import { cpuPerRequest, cpuSnapshot } from './bench/cpu-cost.js';
import { startCpuProfile } from './bench/cpu-profile.js';
import { createLiveAuctions } from './bench/live-auctions.js';
import type { LoadJob, LoadResult, RequestVariant } from './bench/load-generator.js';
import { startLoadGenerator } from './bench/load-generator-process.js';
import { startMarketActivity } from './bench/market-activity.js';
import { machineDescription, mapConcurrent, progress } from './bench/measure.js';
import { type SyntheticAuction, syntheticAuction, syntheticSellers } from './bench/synthetic-auctions.js';

const { values } = parseArgs({
  options: {
    auctions: { type: 'string' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    warmup: { type: 'string' },
    writes: { type: 'string' },
    keys: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'string' },
  },
});
const SIZES = (values.auctions ?? '10000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const ROUNDS = Number(values.rounds ?? 3);
const DURATION = Number(values.duration ?? 10);
const CONNECTIONS = Number(values.connections ?? 10);
const WARMUP = Number(values.warmup ?? 1);
const WRITES_PER_SECOND = Number(values.writes ?? 5);
const KEYS = Number(values.keys ?? 1_000);
/** Runs only the cases whose name matches (and the baselines), e.g. when profiling one. */
const ONLY = values.only === undefined ? null : new RegExp(values.only);
const PROFILE_DIR = values.profile;
const SELLERS = 1_000;
const PAGES = 10;
const TARGETS = { listRatio: 0.4, listP99Ms: 20, bidP99Ms: 25 };
/** The group of the short baselines run after every case. */
const ADJACENT = 'adjacent baseline';

interface CaseResult extends LoadResult {
  /** CPU ms per request of the API process (the bench process) and of Redis, warm-up included. */
  readonly cpuMsPerRequest: { apiMs: number; redisMs: number };
  readonly group: string;
  readonly name: string;
  readonly example: string;
  /** GET /auctions: `total` of the first variant's answer. */
  readonly total?: number;
  /** GET /auctions: which of the `--rounds` this run belongs to. */
  readonly round?: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main() {
  const fixture = await startApiFixture();
  const loadGenerator = startLoadGenerator();
  const { deps } = fixture;
  const market = startMarketActivity({
    index: deps.auctionIndex,
    chainClock: deps.chainClock,
    writesPerSecond: WRITES_PER_SECOND,
  });
  try {
    progress(`bench:api — ${machineDescription()}`);
    progress('creating real auctions on the localnet and the API key pool');
    const live = await createLiveAuctions({
      connection: deps.connection,
      rpcUrl: fixture.rpcUrl,
      index: deps.auctionIndex,
      perType: 4,
      bidderCount: 10,
    });
    const keys = await fixture.createKeys(KEYS, live.bidders);
    loadGenerator.setKeys(keys);

    const results: CaseResult[] = [];
    const run = async (
      group: string,
      name: string,
      job: Omit<LoadJob, 'connections' | 'durationSeconds' | 'warmupSeconds'>,
      durationSeconds = DURATION,
      round?: number,
    ) => {
      if (ONLY && group !== 'baseline' && group !== ADJACENT && !ONLY.test(name)) return;
      const first = job.variants[0]!;
      const probe = await fetch(`${job.url}${first.path}`, {
        method: job.method,
        headers: {
          ...(job.withKeys ? { 'x-api-key': keys.at(-1)! } : {}),
          ...(first.body ? { 'content-type': 'application/json' } : {}),
        },
        body: first.body,
      });
      const body = (await probe.json()) as { data?: { total?: number } };
      if (probe.status !== 200) throw new Error(`${name}: ${probe.status} ${JSON.stringify(body)}`);
      const cpuBefore = await cpuSnapshot(deps.redis);
      const profiler = PROFILE_DIR ? await startCpuProfile() : null;
      const result = await loadGenerator.run({
        ...job,
        connections: CONNECTIONS,
        durationSeconds,
        warmupSeconds: WARMUP,
      });
      const label = round === undefined ? name : `${name} (round ${round})`;
      if (profiler && PROFILE_DIR) await profiler.stopInto(PROFILE_DIR, `${group} ${label}`);
      // The warm-up's requests are not in the count: assume it ran at the same rate.
      const cpu = cpuPerRequest(
        cpuBefore,
        await cpuSnapshot(deps.redis),
        result.requests * (1 + WARMUP / durationSeconds),
      );
      const total = body.data?.total;
      results.push({
        group,
        name,
        example: first.path,
        ...(total === undefined ? {} : { total }),
        ...(round === undefined ? {} : { round }),
        ...result,
        cpuMsPerRequest: cpu,
      });
      progress(
        `${group} · ${label}: ${result.requestsPerSecond} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, CPU/request: API ${cpu.apiMs} ms, Redis ${cpu.redisMs} ms, load generator ${result.loadGeneratorCpuMsPerRequest} ms${result.non2xx ? `, ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}` : ''}`,
      );
      // The machine's speed drifts within a run (other work on the cores): a short baseline after
      // every case gives each case the baselines measured right before and after it.
      if (group !== 'baseline' && group !== ADJACENT) await adjacentBaseline(name);
    };
    const baselineJob = {
      url: fixture.baselineUrl,
      method: 'GET',
      variants: [{ path: '/baseline' }],
      withKeys: false,
    } as const;
    const adjacentBaseline = (after: string) =>
      run(ADJACENT, `bare fastify + one Redis GET (after ${after})`, baselineJob, Math.ceil(DURATION / 2));
    const baseline = (when: string) => run('baseline', `bare fastify + one Redis GET (${when})`, baselineJob);

    const sellers = syntheticSellers(SELLERS);
    let loaded = 0;
    for (const size of SIZES) {
      market.setBiddable([]);
      const loadMs = await loadSyntheticAuctions(fixture.deps, sellers, loaded, size);
      progress(`indexed ${size} auctions (${loaded} → ${size} in ${(loadMs / 1000).toFixed(1)} s)`);
      loaded = size;
      market.setBiddable(await biddableAuctions(fixture.deps, sellers, size));
      await baseline(`before ${size}`);
      const cases = listCases({ apiPrefix: fixture.apiPrefix, sellers, auctionCount: size, pages: PAGES });
      for (let round = 1; round <= ROUNDS; round++) {
        for (const c of cases) {
          const job = { url: fixture.apiUrl, method: 'GET', variants: c.variants, withKeys: true } as const;
          await run(`GET /auctions @ ${size}`, c.name, job, DURATION, round);
        }
      }
    }

    await baseline('before the chain routes');
    const detail: RequestVariant[] = live.auctions.map((a) => ({
      path: `${fixture.apiPrefix}/auctions/${a.address}`,
    }));
    await run('chain', 'GET /auctions/:id', {
      url: fixture.apiUrl,
      method: 'GET',
      variants: detail,
      withKeys: true,
    });
    const bids: RequestVariant[] = live.auctions.map((a) => ({
      path: `${fixture.apiPrefix}/auctions/${a.address}/bid`,
      body: JSON.stringify({ bidAmount: a.bidAmount }),
    }));
    await run('chain', 'POST /auctions/:id/bid (build)', {
      url: fixture.apiUrl,
      method: 'POST',
      variants: bids,
      withKeys: true,
    });
    await baseline('at the end');

    console.log(JSON.stringify(summary(results, market.writes), null, 2));
  } finally {
    await market.stop();
    loadGenerator.stop();
    await fixture.close();
  }
}

/** Loads auctions [from, to) in chunks, with the metadata some of them carry; returns the time taken. */
async function loadSyntheticAuctions(
  deps: Awaited<ReturnType<typeof startApiFixture>>['deps'],
  sellers: readonly Address[],
  from: number,
  to: number,
): Promise<number> {
  const started = performance.now();
  const chunk = 10_000;
  for (let start = from; start < to; start += chunk) {
    const chainNow = await deps.chainClock.now();
    const auctions = Array.from({ length: Math.min(chunk, to - start) }, (_, j) =>
      syntheticAuction(start + j, sellers, chainNow),
    );
    await deps.auctionIndex.bulkUpsert(auctions, chainNow);
    await mapConcurrent(
      auctions.filter((a) => a.metadata !== null),
      32,
      (a) => deps.auctionIndex.putMetadata(a.address, a.metadata!),
    );
    progress(`indexing: ${start + auctions.length} / ${to}`);
  }
  return performance.now() - started;
}

/** Live English auctions among the first `count`: what the write trickle bids on. */
async function biddableAuctions(
  deps: Awaited<ReturnType<typeof startApiFixture>>['deps'],
  sellers: readonly Address[],
  count: number,
): Promise<SyntheticAuction[]> {
  const now = await deps.chainClock.now();
  const candidates = Array.from({ length: Math.min(count, 5_000) }, (_, i) =>
    syntheticAuction(i, sellers, now),
  );
  const indexed = await Promise.all(candidates.map((a) => deps.auctionIndex.get(a.address)));
  return indexed.flatMap((a) =>
    a &&
    (a.account.auctionType === 'standard' || a.account.auctionType === 'reserve') &&
    auctionStatus(a.account, now) === 'active'
      ? [{ address: a.address, account: a.account, slot: a.slot, metadata: null }]
      : [],
  );
}

function summary(results: readonly CaseResult[], writes: number) {
  const baselines = results.filter((r) => r.group === 'baseline');
  const baselineRps = median(baselines.map((r) => r.requestsPerSecond));
  const largest = `GET /auctions @ ${SIZES.at(-1)}`;
  const isBaseline = (r: CaseResult) => r.group === 'baseline' || r.group === ADJACENT;
  const cases = results.flatMap((r, i) => {
    if (r.group === ADJACENT) return [];
    // The baselines measured just before and just after the case.
    const before = results.slice(0, i).findLast(isBaseline);
    const after = results.slice(i + 1).find(isBaseline);
    const adjacent = [before, after].flatMap((b) => (b ? [b.requestsPerSecond] : []));
    const adjacentRps = adjacent.reduce((sum, rps) => sum + rps, 0) / Math.max(1, adjacent.length);
    return [
      {
        ...r,
        ratioToBaseline: round2(r.requestsPerSecond / baselineRps),
        ratioToAdjacentBaselines: round2(r.requestsPerSecond / adjacentRps),
      },
    ];
  });
  // A list case over its rounds: judged by the median of its ratios to the baselines next to it.
  const roundsByCase = new Map<string, typeof cases>();
  for (const c of cases.filter((c) => c.round !== undefined)) {
    const key = `${c.group} · ${c.name}`;
    roundsByCase.set(key, [...(roundsByCase.get(key) ?? []), c]);
  }
  const listCases = [...roundsByCase.values()].map((rounds) => ({
    group: rounds[0]!.group,
    name: rounds[0]!.name,
    example: rounds[0]!.example,
    total: rounds[0]!.total,
    rounds: rounds.length,
    ratioToAdjacentBaselines: {
      median: median(rounds.map((r) => r.ratioToAdjacentBaselines)),
      min: Math.min(...rounds.map((r) => r.ratioToAdjacentBaselines)),
      max: Math.max(...rounds.map((r) => r.ratioToAdjacentBaselines)),
    },
    requestsPerSecondMedian: median(rounds.map((r) => r.requestsPerSecond)),
    p99MsMax: Math.max(...rounds.map((r) => r.latencyMs.p99)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  }));
  const listAtLargest = listCases.filter((c) => c.group === largest);
  const listMet = (c: (typeof listCases)[number]) =>
    c.ratioToAdjacentBaselines.median >= TARGETS.listRatio &&
    c.p99MsMax < TARGETS.listP99Ms &&
    c.non2xx === 0;
  const bid = cases.find((c) => c.name.startsWith('POST'));
  return {
    machine: machineDescription(),
    options: {
      auctions: SIZES,
      rounds: ROUNDS,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      writesPerSecond: WRITES_PER_SECOND,
      apiKeys: KEYS,
      pages: PAGES,
    },
    baseline: { requestsPerSecondMedian: baselineRps, runs: baselines.map((b) => b.requestsPerSecond) },
    listCases,
    cases,
    marketWrites: writes,
    targets: {
      listAtLargest: `${largest}: each case's median over its rounds ≥ ${TARGETS.listRatio * 100} % of the baselines next to it, p99 < ${TARGETS.listP99Ms} ms`,
      bid: `bid building p99 < ${TARGETS.bidP99Ms} ms`,
    },
    met: {
      listAtLargest: listAtLargest.every(listMet),
      listMisses: listAtLargest.filter((c) => !listMet(c)).map((c) => c.name),
      bid: bid !== undefined && bid.latencyMs.p99 < TARGETS.bidP99Ms && bid.non2xx === 0,
    },
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
