/**
 * npm run bench:agents — the strategy runner against the real API and a localnet in its own process.
 *  1. Timing: N dutch-stop instances (live: signed, sent, confirmed) whose crossings are planned two
 *     per second; for each bid, when it fired (request out − planned instant: the runner waits for
 *     the Clock sysvar to carry the planned second), the landing (confirmed − planned instant) and
 *     the chain second it landed in against the planned one. Baseline in the same run: a bare
 *     setTimeout aimed at the same instants (no BullMQ/Redis).
 *  2. Concurrency: K late-proxy instances (paper) on M auctions, all polling every 2 s; the
 *     evaluations per second achieved against those needed, and how late they start (p50/p99).
 *     Baseline: the same with 100 instances; the ratio is the cost of scale.
 *     Run once per fire delay (the fallback when the chain clock cannot be read; default 450).
 * Options: --bids 50 --instances 1000,2000 --seconds 20 --fire-delays 450.
 * Progress to stderr, JSON summary to stdout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Keypair, Transaction } from '@solana/web3.js';
import type { RunnerEvent } from '../agents/runner/runner.js';
import { startRuntime } from '../agents/runner/runtime.js';
import { SnsAuctionClient } from '../src/client/sns-auction-client.js';
import { dutchCrossingTime, dutchPrice } from '../src/core/auction-rules/dutch-price.js';
import { lamportsToSol } from '../src/core/money.js';
import { startApiFixture } from './bench/api-fixture.js';
import { rpcCall } from './bench/localnet-process.js';
import { latencySummary, machineDescription, mapConcurrent, progress } from './bench/measure.js';

const { values } = parseArgs({
  options: {
    bids: { type: 'string' },
    instances: { type: 'string' },
    seconds: { type: 'string' },
    'fire-delays': { type: 'string' },
  },
});
const BIDS = Number(values.bids ?? 50);
/** The runner's default (450 ms: one 400 ms slot and a margin after the planned second), then a bolder one. */
const FIRE_DELAYS = (values['fire-delays'] ?? '450').split(',').map(Number);
const SIZES = (values.instances ?? '1000,2000').split(',').map(Number);
const SECONDS = Number(values.seconds ?? 20);
const SOL = 1_000_000_000n;
const POLL_MS = 2000;

const fixture = await startApiFixture();
const connection = fixture.deps.connection;
const baseUrl = `${fixture.apiUrl}${fixture.apiPrefix}`;
const dir = await mkdtemp(join(tmpdir(), 'bench-agents-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function funded(sol: number): Promise<Keypair> {
  const k = Keypair.generate();
  for (let left = sol; left > 0; left -= 100) {
    const sig = await connection.requestAirdrop(k.publicKey, Number(BigInt(Math.min(100, left)) * SOL));
    await connection.confirmTransaction(sig, 'confirmed');
  }
  return k;
}

async function signSend(base64: string, signer: Keypair): Promise<void> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(signer);
  await connection.confirmTransaction(await connection.sendRawTransaction(tx.serialize()), 'confirmed');
}

const chainTime = async () =>
  (await rpcCall<{ unixTimestamp: number }>(fixture.rpcUrl, 'localnet_getTime', [])).unixTimestamp;
const warp = (seconds: number) => rpcCall(fixture.rpcUrl, 'localnet_warpTime', [seconds]);

async function createAuctions(seller: Keypair, count: number, body: Record<string, unknown>, tag: string) {
  // POST /auctions/create allows 10 a minute per key: one key (same wallet) per auction.
  const keys = await fixture.createKeys(count, [seller.publicKey.toBase58()]);
  return mapConcurrent(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const name = `bench-${tag}-${i}-${Date.now() % 100000}.sol`;
      await rpcCall(fixture.rpcUrl, 'localnet_registerDomain', [name, seller.publicKey.toBase58()]);
      const client = new SnsAuctionClient({ baseUrl, apiKey: keys[i]! });
      const created = await client.createAuction({
        domainNames: [name],
        startingPrice: 10,
        minBidIncrement: 0.1,
        durationHours: 0.25,
        ...body,
      } as never);
      await signSend(created.transaction, seller);
      return created.auctionId;
    },
  );
}

async function timing(FIRE_DELAY_MS: number) {
  progress(`timing: ${BIDS} dutch auctions, crossings planned two per second`);
  const seller = await funded(50);
  const buyer = await funded(Math.max(100, BIDS * 10 + 10));
  const buyerKey = (await fixture.createKeys(1, [buyer.publicKey.toBase58()]))[0]!;
  const ids = await createAuctions(seller, BIDS, { type: 'dutch', dutchEndPrice: 1 }, 'dutch');
  const client = new SnsAuctionClient({ baseUrl, apiKey: buyerKey });
  const details = await Promise.all(ids.map((id) => client.getAuction(id)));
  const base = Math.max(...details.map((d) => d.startTime / 1000)) + 200;
  const plans = details.map((d, i) => {
    const schedule = {
      startingPrice: 10n * SOL,
      dutchFloor: SOL,
      startTs: BigInt(d.startTime / 1000),
      endTs: BigInt(d.endTime / 1000),
    };
    const second = BigInt(base + 12 + Math.floor(i / 2));
    const stop = dutchPrice(schedule, second);
    if (dutchCrossingTime(schedule, stop) !== second) throw new Error('crossing not at the planned second');
    return { id: d.id, second: Number(second), stop: lamportsToSol(stop) };
  });
  await warp(base - (await chainTime()));
  const events: Extract<RunnerEvent, { type: 'bid' }>[] = [];
  let refused = 0;
  const rt = await startRuntime(
    {
      apiUrl: baseUrl,
      apiKey: buyerKey,
      rpcUrl: fixture.rpcUrl,
      redisUrl: fixture.deps.config.redisUrl,
      redisPrefix: 'bench-agents-timing:',
      pollMs: POLL_MS,
      fireDelayMs: FIRE_DELAY_MS,
    },
    {
      keypair: buyer,
      onEvent: (e) => {
        if (e.type === 'bid') events.push(e);
        if (e.type === 'bid_failed') refused++;
      },
    },
  );
  // Baseline: a bare timer aimed at the same instants (converted with the same offset).
  const offsetMs = (await chainTime()) * 1000 - Date.now();
  const timerErrors: number[] = [];
  for (const p of plans) {
    const at = p.second * 1000 - offsetMs + FIRE_DELAY_MS;
    setTimeout(() => timerErrors.push(Date.now() - at), at - Date.now());
  }
  for (const p of plans)
    await rt.control.startStrategy({
      id: `t-${p.id.slice(0, 8)}`,
      strategy: 'dutch-stop',
      mode: 'live',
      config: { auctionId: p.id, stopPrice: p.stop },
    });
  const deadline = Date.now() + (plans.length / 2 + 40) * 1000;
  while (events.length < plans.length && Date.now() < deadline) await sleep(250);
  const chainLate: number[] = [];
  for (const e of events) {
    const tx = await connection.getTransaction(e.signature!, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    const plan = plans.find((p) => p.id === e.auctionId)!;
    chainLate.push((tx?.blockTime ?? 0) - plan.second);
  }
  await rt.close();
  const timed = events.filter((e) => e.plannedAt !== null);
  return {
    fireDelayMs: FIRE_DELAY_MS,
    /** Requests the server refused (fired before the slot carried the planned second), retried. */
    refusedAndRetried: refused,
    bids: events.length,
    planned: plans.length,
    timedBids: timed.length,
    firedAfterPlannedMs: latencySummary(timed.map((e) => e.firedAt - e.plannedAt!)),
    landedMinusPlannedMs: latencySummary(timed.map((e) => e.landedAt - e.plannedAt!)),
    sendToConfirmMs: latencySummary(events.map((e) => e.landedAt - e.firedAt)),
    landedInPlannedSecond: chainLate.filter((s) => s === 0).length,
    chainSecondsLate: chainLate,
    baselineTimerErrorMs: latencySummary(timerErrors),
  };
}

async function concurrency(instances: number, auctionIds: string[], key: string) {
  const lateness: number[] = [];
  let evaluations = 0;
  let measuring = false;
  const rt = await startRuntime(
    {
      apiUrl: baseUrl,
      apiKey: key,
      redisUrl: fixture.deps.config.redisUrl,
      redisPrefix: `bench-agents-c${instances}:`,
      pollMs: POLL_MS,
      concurrency: 200,
      viewMaxAgeMs: 1500,
    },
    {
      onEvaluated: (_, late) => {
        if (!measuring) return;
        evaluations++;
        if (late !== null) lateness.push(late);
      },
    },
  );
  await mapConcurrent(
    Array.from({ length: instances }, (_, i) => i),
    32,
    (i) =>
      rt.control.startStrategy({
        id: `c${i}`,
        strategy: 'late-proxy',
        mode: 'paper',
        config: { auctionId: auctionIds[i % auctionIds.length]!, maxBid: 5 },
      }),
  );
  await sleep(2 * POLL_MS);
  const cpu0 = process.cpuUsage();
  measuring = true;
  await sleep(SECONDS * 1000);
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  await rt.control.killSwitch(true);
  await rt.close();
  return {
    instances,
    evaluationsPerSecond: Math.round(evaluations / SECONDS),
    neededPerSecond: Math.round(instances / (POLL_MS / 1000)),
    latenessMs: latencySummary(lateness),
    runnerCpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / (SECONDS * 1000)) * 100),
  };
}

try {
  progress(`bench:agents — ${machineDescription()}`);
  const timingResult = [];
  for (const delay of FIRE_DELAYS) {
    timingResult.push(await timing(delay));
    progress(`timing: ${JSON.stringify(timingResult.at(-1))}`);
  }
  const seller = await funded(20);
  const bidder = await funded(5);
  const bidderKey = (await fixture.createKeys(1, [bidder.publicKey.toBase58()]))[0]!;
  const english = await createAuctions(
    seller,
    10,
    { type: 'standard', startingPrice: 1, durationHours: 24 },
    'eng',
  );
  const results = [];
  for (const n of [100, ...SIZES]) {
    progress(`concurrency: ${n} instances on ${english.length} auctions for ${SECONDS} s`);
    results.push(await concurrency(n, english, bidderKey));
    progress(JSON.stringify(results.at(-1)));
  }
  const baseline = results[0]!;
  process.stdout.write(
    `${JSON.stringify(
      {
        machine: machineDescription(),
        timing: timingResult,
        concurrency: results.map((r) => ({
          ...r,
          p99LatenessVsBaseline:
            Math.round((r.latenessMs.p99 / Math.max(1, baseline.latenessMs.p99)) * 100) / 100,
        })),
        targets: { timingP99Ms: 500, instances: 1000 },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await fixture.close();
  await rm(dir, { recursive: true, force: true });
}
