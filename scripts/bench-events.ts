/**
 * npm run bench:events — events, webhooks and analytics, with the worker as deployed:
 *  1. latency from a confirmed bid to the webhook received, with `--subscriptions` subscriptions
 *     (several API keys) on receivers in their own process, while bids arrive at each `--rate`
 *     per second in turn: indexer → event log → fan-out → BullMQ → HTTP POST, in the worker process;
 *  2. analytics endpoints (GET /analytics/market, /analytics/collections) under load (autocannon in
 *     a child process) next to bench:api's baseline (bare fastify + one Redis GET), same run;
 *  3. indexer throughput: `--events` more bids landed with the worker stopped, then a fresh
 *     indexer catches up on the whole program history from scratch (events indexed per second),
 *     next to the raw fetch of the same history through the same RPC calls (the baseline).
 * Progress goes to stderr, the summary (JSON) to stdout.
 * Options: --auctions 200 --sales 20 --bidders 50 --subscriptions 100 --receivers 10 --rate 1,2,5
 * --duration 30 --events 10000 --load-duration 10 --connections 10 --warmup 1 --keys 1000
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { waitUntilIndexed } from '../src/indexer/indexed-signatures.js';
import { indexFromScratch, landBids, rawFetch } from './bench/events-indexing.js';
import { type LatencyResult, measureLatency, subscribe } from './bench/events-latency.js';
import { type Market, setUpMarket } from './bench/events-market.js';
import { startReceiversProcess } from './bench/events-receivers-process.js';
import { type EventsSystem, startEventsSystem } from './bench/events-system.js';
import type { LoadResult } from './bench/load-generator.js';
import { startLoadGenerator } from './bench/load-generator-process.js';
import { machineDescription, progress } from './bench/measure.js';

const { values } = parseArgs({
  options: Object.fromEntries(
    [
      'auctions',
      'sales',
      'bidders',
      'subscriptions',
      'receivers',
      'rate',
      'duration',
      'events',
      'load-duration',
      'connections',
      'warmup',
      'keys',
    ].map((name) => [name, { type: 'string' as const }]),
  ),
});
const option = (name: string, fallback: number) => Number(values[name] ?? fallback);
const AUCTIONS = option('auctions', 200);
const SALES = option('sales', 20);
const BIDDERS = option('bidders', 50);
const SUBSCRIPTIONS = option('subscriptions', 100);
const RECEIVERS = option('receivers', 10);
/** Bid rates of the latency runs, one after the other (bids per second). */
const RATES = (values['rate'] ?? '1,2,5').split(',').map(Number);
const DURATION = option('duration', 30);
const EVENTS = option('events', 10_000);
const LOAD_DURATION = option('load-duration', 10);
const CONNECTIONS = option('connections', 10);
const WARMUP = option('warmup', 1);
const KEYS = option('keys', 1_000);
const TARGETS = { webhookP99Ms: 1_000, indexerEventsPerSecond: 2_000 };

const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  progress(`bench:events — ${machineDescription()}; load average ${loadavg().map(round2).join(' ')}`);
  const system = await startEventsSystem();
  const receivers = await startReceiversProcess(RECEIVERS);
  const loadGenerator = startLoadGenerator();
  const worker = system.startWorker();
  try {
    const { deps } = system;
    progress(`setting up ${AUCTIONS} auctions, ${SALES} buy-now sales, ${BIDDERS} bidders`);
    const market = await setUpMarket({
      connection: deps.connection,
      rpcUrl: system.rpcUrl,
      auctions: AUCTIONS,
      sales: SALES,
      bidders: BIDDERS,
    });
    await waitUntilIndexed(deps.redis, deps.keys, market.lastSignature, { pollMs: 50 });

    const keys = await subscribe(system, market, receivers, SUBSCRIPTIONS);
    progress(`${SUBSCRIPTIONS} subscriptions under ${keys} API keys`);
    const latency = [];
    let firstAuction = 0;
    for (const rate of RATES) {
      progress(`latency: ${SUBSCRIPTIONS} subscriptions, ${rate} bids/s for ${DURATION} s`);
      const result = await measureLatency({
        system,
        market,
        receivers,
        subscriptions: SUBSCRIPTIONS,
        rate,
        durationSeconds: DURATION,
        firstAuction,
        workerPid: worker.pid,
      });
      firstAuction += Math.round(rate * 10);
      report(`${rate} bids/s`, result);
      latency.push(result);
    }

    progress('analytics endpoints under load');
    const analytics = await measureAnalytics(system, market, loadGenerator);

    progress('stopping the worker; landing bids for the indexer');
    await worker.stop();
    const indexer = EVENTS > 0 ? await measureIndexer(system, market) : null;

    console.log(
      JSON.stringify(
        {
          machine: machineDescription(),
          loadAverageAtEnd: loadavg().map((l) => round2(l)),
          options: {
            auctions: AUCTIONS,
            sales: SALES,
            bidders: BIDDERS,
            subscriptions: SUBSCRIPTIONS,
            receivers: RECEIVERS,
            bidsPerSecond: RATES,
            durationSeconds: DURATION,
            bulkBids: EVENTS,
            loadDurationSeconds: LOAD_DURATION,
            connections: CONNECTIONS,
            apiKeys: KEYS,
          },
          webhookLatency: latency,
          analytics,
          indexer,
          targets: {
            webhook: `confirmed bid → webhook received p99 < ${TARGETS.webhookP99Ms} ms with ${SUBSCRIPTIONS} subscriptions`,
            indexer: `≥ ${TARGETS.indexerEventsPerSecond} events/s`,
          },
          met: {
            webhook: Object.fromEntries(
              latency.map((l) => [
                `${l.bidsPerSecond} bids/s`,
                l.bid.fromConfirmed.p99 < TARGETS.webhookP99Ms && l.missing === 0,
              ]),
            ),
            indexer: indexer === null ? null : indexer.eventsPerSecond >= TARGETS.indexerEventsPerSecond,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await worker.stop();
    loadGenerator.stop();
    receivers.stop();
    await system.close();
  }
}

function report(name: string, result: LatencyResult) {
  progress(
    `${name}: ${result.bids} bids, ${result.received} deliveries received, ${result.missing} missing; ` +
      `bid → webhook p50 ${result.bid.fromConfirmed.p50} ms, p99 ${result.bid.fromConfirmed.p99} ms`,
  );
  if ('cpuPercent' in result) progress(`  CPU (% of a core): ${JSON.stringify(result.cpuPercent)}`);
  for (const [stage, s] of Object.entries(result.stages))
    progress(`  ${stage}: p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms (n ${s.n})`);
}

/** Part 3: bids landed with the worker stopped, then the raw fetch, the indexer, the raw fetch. */
async function measureIndexer(system: EventsSystem, market: Market) {
  const { deps } = system;
  const landed = await landBids(market, EVENTS);
  progress(`landed ${landed.bids} bids at ${landed.perSecond}/s (${landed.failures} failed)`);
  const fetches = [await rawFetch(deps.connection, 'lean'), await rawFetch(deps.connection, 'web3')];
  for (const f of fetches)
    progress(`raw fetch (${f.client}): ${f.transactions} transactions in ${f.seconds} s`);
  const indexed = await indexFromScratch(deps, landed.newestSignature);
  progress(
    `indexer from scratch: ${indexed.events} events in ${indexed.seconds} s = ${indexed.eventsPerSecond}/s`,
  );
  fetches.push(await rawFetch(deps.connection, 'lean'), await rawFetch(deps.connection, 'web3'));
  for (const f of fetches.slice(2))
    progress(`raw fetch (${f.client}): ${f.transactions} transactions in ${f.seconds} s`);
  // Events per second of the same history at each fetch's pace (mean of its two runs).
  const pace = (client: string) => {
    const runs = fetches.filter((f) => f.client === client).map((f) => f.seconds);
    return Math.round(indexed.events / (runs.reduce((a, b) => a + b, 0) / runs.length));
  };
  const leanEventsPerSecond = pace('lean');
  return {
    ...indexed,
    landedBids: landed,
    baselineRawFetch: { runs: fetches, leanEventsPerSecond, web3EventsPerSecond: pace('web3') },
    ratioToBaseline: round2(indexed.eventsPerSecond / leanEventsPerSecond),
    ratioToWeb3Fetch: round2(indexed.eventsPerSecond / pace('web3')),
  };
}

async function measureAnalytics(
  system: EventsSystem,
  market: Market,
  loadGenerator: ReturnType<typeof startLoadGenerator>,
) {
  const keys = await system.createKeys(
    KEYS,
    market.bidders.map((b) => b.publicKey.toBase58()),
  );
  loadGenerator.setKeys(keys.map((k) => k.key));
  const results: ({ name: string } & LoadResult)[] = [];
  const run = async (name: string, url: string, path: string, withKeys: boolean) => {
    const probe = await fetch(
      `${url}${path}`,
      withKeys ? { headers: { 'x-api-key': keys.at(-1)!.key } } : {},
    );
    if (probe.status !== 200) throw new Error(`${name}: ${probe.status} ${await probe.text()}`);
    const result = await loadGenerator.run({
      url,
      method: 'GET',
      variants: [{ path }],
      withKeys,
      connections: CONNECTIONS,
      durationSeconds: LOAD_DURATION,
      warmupSeconds: WARMUP,
    });
    results.push({ name, ...result });
    progress(
      `${name}: ${result.requestsPerSecond} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms${result.non2xx ? `, ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}` : ''}`,
    );
  };
  const baseline = (when: string) =>
    run(`baseline: bare fastify + one Redis GET (${when})`, system.baselineUrl, '/baseline', false);
  const sample = await (await fetch(`${system.apiBase}/analytics/market`)).json();
  await baseline('before');
  await run('GET /analytics/market', system.apiUrl, '/api/v1/analytics/market', true);
  await run('GET /analytics/collections', system.apiUrl, '/api/v1/analytics/collections', true);
  await baseline('after');
  const baselines = results.filter((r) => r.name.startsWith('baseline'));
  const baselineRps = median(baselines.map((b) => b.requestsPerSecond));
  return {
    sampleMarket: (sample as { data: unknown }).data,
    baseline: { requestsPerSecondMedian: baselineRps, runs: baselines.map((b) => b.requestsPerSecond) },
    cases: results.map((r) => ({ ...r, ratioToBaseline: round2(r.requestsPerSecond / baselineRps) })),
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
