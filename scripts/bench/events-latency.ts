/**
 * bench:events, part 1: from a confirmed bid to the webhook received. Subscriptions are created
 * through the API (several keys, each under its per-key limit), pointing at the receivers'
 * process; bids are sent at a steady rate, each timed until its status reads confirmed; every
 * delivery is matched to its bid by the event id (derived from the signature, as the indexer
 * derives it). The event log's stream id tells when the indexer appended each event (Redis's
 * clock, the same machine's), which splits the latency into indexing and delivery.
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventId } from '../../src/indexer/event-log.js';
import { createDeliveryQueue } from '../../src/webhooks/delivery-queue.js';
import { DEFAULT_DELIVERY_SETTINGS } from '../../src/webhooks/delivery-settings.js';
import { processCpuSeconds, redisCpuSeconds } from './cpu-time.js';
import { type Market, nextBid, type SentBid, sendAndTime } from './events-market.js';
import type { Reception } from './events-receivers.js';
import type { ReceiversProcess } from './events-receivers-process.js';
import type { EventsSystem } from './events-system.js';
import { latencySummary, progress } from './measure.js';

export interface LatencyResult {
  readonly bids: number;
  readonly subscriptions: number;
  /** Bid deliveries expected (bids × subscriptions) and received, outbid ones aside. */
  readonly expected: number;
  readonly received: number;
  readonly missing: number;
  readonly outbidReceived: number;
  readonly bid: {
    readonly fromConfirmed: ReturnType<typeof latencySummary>;
    readonly fromSent: ReturnType<typeof latencySummary>;
  };
  readonly outbid: { readonly fromConfirmed: ReturnType<typeof latencySummary> };
  readonly stages: {
    readonly sentToConfirmed: ReturnType<typeof latencySummary>;
    readonly confirmedToIndexed: ReturnType<typeof latencySummary>;
    readonly indexedToReceived: ReturnType<typeof latencySummary>;
    /** From the delivery jobs' own timestamps (BullMQ: created, processed, finished). */
    readonly indexedToEnqueued: ReturnType<typeof latencySummary>;
    readonly enqueuedToStarted: ReturnType<typeof latencySummary>;
    readonly startedToFinished: ReturnType<typeof latencySummary>;
  };
  /** Deliveries per second received during the stream (bid and outbid). */
  readonly deliveriesPerSecond: number;
}

const SUBSCRIPTIONS_PER_KEY = 10;

/** `count` subscriptions to bids and outbids, spread over API keys and receiving servers. */
export async function subscribe(
  system: EventsSystem,
  market: Market,
  receivers: ReceiversProcess,
  count: number,
): Promise<number> {
  const owners = await system.createKeys(
    Math.ceil(count / SUBSCRIPTIONS_PER_KEY),
    market.bidders.map((b) => b.publicKey.toBase58()),
  );
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${system.apiBase}/webhooks/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': owners[n % owners.length]!.key },
      body: JSON.stringify({
        url: `${receivers.urls[n % receivers.urls.length]}/s/${n}`,
        events: ['auction.bid', 'auction.outbid'],
      }),
    });
    if (response.status !== 200)
      throw new Error(`webhook create: ${response.status} ${await response.text()}`);
  }
  return owners.length;
}

/** Polls the receivers until `done` holds over what they received, or `timeoutMs` passes. */
async function receivedUntil(
  receivers: ReceiversProcess,
  done: (received: readonly Reception[]) => boolean,
  timeoutMs: number,
): Promise<readonly Reception[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const received = await receivers.collect();
    if (done(received) || performance.now() > deadline) return received;
    await sleep(250);
  }
}

export async function measureLatency(input: {
  readonly system: EventsSystem;
  readonly market: Market;
  readonly receivers: ReceiversProcess;
  readonly subscriptions: number;
  readonly rate: number;
  readonly durationSeconds: number;
  /** Bids go to auctions from this index on (each rate its own, so every bid but the first outbids). */
  readonly firstAuction: number;
  readonly workerPid: number;
}): Promise<
  LatencyResult & {
    bidsPerSecond: number;
    loadAverage: { before: number; after: number };
    cpuPercent: { redis: number; worker: number };
  }
> {
  const { system, market, receivers, subscriptions, rate } = input;
  const { connection } = market;
  const loadBefore = loadavg()[0]!;

  // Warm-up: one bid delivered to everyone (leases taken, connections and scripts warm).
  let { blockhash } = await connection.getLatestBlockhash();
  const warm = await sendAndTime(connection, nextBid(market, market.auctions.length - 1, blockhash));
  const warmId = eventId(warm.signature, 0);
  const warmed = await receivedUntil(
    receivers,
    (r) => r.filter((q) => q.id === warmId).length >= subscriptions,
    60_000,
  );
  if (warmed.filter((q) => q.id === warmId).length < subscriptions)
    throw new Error('the warm-up bid did not reach every subscription within 60 s');
  receivers.reset();

  const total = Math.round(rate * input.durationSeconds);
  const active = Math.min(market.auctions.length - 1, Math.max(1, Math.round(rate * 10)));
  const first = input.firstAuction;
  const refresh = setInterval(() => {
    connection.getLatestBlockhash().then(
      (latest) => {
        blockhash = latest.blockhash;
      },
      () => undefined,
    );
  }, 10_000);
  const sends: Promise<SentBid>[] = [];
  const started = performance.now();
  const cpuBefore = [await redisCpuSeconds(system.deps.redis), await processCpuSeconds(input.workerPid)];
  try {
    for (let k = 0; k < total; k++) {
      const wait = started + (k * 1_000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      // A bidding war over `active` auctions: each bid after the first on one outbids someone,
      // and consecutive bids on one auction are 10 s apart (so they never race each other).
      sends.push(
        sendAndTime(
          connection,
          nextBid(market, (first + (k % active)) % (market.auctions.length - 1), blockhash),
        ),
      );
      if ((k + 1) % (rate * 10) === 0) progress(`sent ${k + 1} / ${total} bids`);
    }
  } finally {
    clearInterval(refresh);
  }
  const bids = await Promise.all(sends);
  const streamSeconds = (performance.now() - started) / 1_000;
  const ids = new Set(bids.map((b) => eventId(b.signature, 0)));
  const expected = bids.length * subscriptions;
  const received = await receivedUntil(
    receivers,
    (r) => r.filter((q) => ids.has(q.id)).length >= expected,
    60_000,
  );
  // Outbid deliveries are enqueued with their bid's: a short settle for the last ones.
  await sleep(1_000);
  const all = await receivers.collect();
  const seconds = (performance.now() - started) / 1_000;
  const cpuAfter = [await redisCpuSeconds(system.deps.redis), await processCpuSeconds(input.workerPid)];
  const share = (i: number) => Math.round(((cpuAfter[i]! - cpuBefore[i]!) / seconds) * 100);
  const result = await summarize(
    system,
    bids,
    all.length > received.length ? all : received,
    subscriptions,
    streamSeconds,
  );
  return {
    ...result,
    bidsPerSecond: rate,
    loadAverage: { before: loadBefore, after: loadavg()[0]! },
    // Percent of one core from the first bid until the last delivery arrived.
    cpuPercent: { redis: share(0), worker: share(1) },
  };
}

async function summarize(
  system: EventsSystem,
  bids: readonly SentBid[],
  received: readonly Reception[],
  subscriptions: number,
  streamSeconds: number,
): Promise<LatencyResult> {
  const { redis, keys } = system.deps;
  const byId = new Map<string, Reception[]>();
  for (const r of received) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  const streamIds = await redis.hmget(keys.eventLogIds(), ...bids.map((b) => eventId(b.signature, 0)));
  const fromConfirmed: number[] = [];
  const fromSent: number[] = [];
  const outbid: number[] = [];
  const confirmedToIndexed: number[] = [];
  const indexedToReceived: number[] = [];
  let bidDeliveries = 0;
  let outbidDeliveries = 0;
  bids.forEach((bid, i) => {
    const id = eventId(bid.signature, 0);
    const indexedAt = Number(streamIds[i]?.split('-')[0] ?? Number.NaN);
    if (!Number.isNaN(indexedAt)) confirmedToIndexed.push(indexedAt - bid.confirmedAt);
    for (const r of byId.get(id) ?? []) {
      if (r.event !== 'auction.bid') continue;
      bidDeliveries++;
      fromConfirmed.push(r.at - bid.confirmedAt);
      fromSent.push(r.at - bid.sentAt);
      if (!Number.isNaN(indexedAt)) indexedToReceived.push(r.at - indexedAt);
    }
    for (const r of byId.get(`${id}_outbid`) ?? []) {
      outbidDeliveries++;
      outbid.push(r.at - bid.confirmedAt);
    }
  });
  const expected = bids.length * subscriptions;
  const jobs = await jobStages(system, new Map(bids.map((b, i) => [eventId(b.signature, 0), streamIds[i]])));
  return {
    bids: bids.length,
    subscriptions,
    expected,
    received: bidDeliveries,
    missing: expected - bidDeliveries,
    outbidReceived: outbidDeliveries,
    bid: { fromConfirmed: latencySummary(fromConfirmed), fromSent: latencySummary(fromSent) },
    outbid: { fromConfirmed: latencySummary(outbid) },
    stages: {
      sentToConfirmed: latencySummary(bids.map((b) => b.confirmedAt - b.sentAt)),
      confirmedToIndexed: latencySummary(confirmedToIndexed),
      indexedToReceived: latencySummary(indexedToReceived),
      ...jobs,
    },
    deliveriesPerSecond: Math.round((bidDeliveries + outbidDeliveries) / streamSeconds),
  };
}

/** The delivery jobs of the measured bids (completed ones are kept a day): where their time went. */
async function jobStages(system: EventsSystem, streamIdOf: Map<string, string | null | undefined>) {
  const queue = createDeliveryQueue(system.deps, DEFAULT_DELIVERY_SETTINGS);
  try {
    const jobs = await queue.getJobs(['completed'], 0, -1);
    const indexedToEnqueued: number[] = [];
    const enqueuedToStarted: number[] = [];
    const startedToFinished: number[] = [];
    for (const job of jobs) {
      const streamId = streamIdOf.get(job.data.eventId);
      if (!streamId || job.data.event !== 'auction.bid') continue;
      indexedToEnqueued.push(job.timestamp - Number(streamId.split('-')[0]));
      if (job.processedOn) enqueuedToStarted.push(job.processedOn - job.timestamp);
      if (job.processedOn && job.finishedOn) startedToFinished.push(job.finishedOn - job.processedOn);
    }
    return {
      indexedToEnqueued: latencySummary(indexedToEnqueued),
      enqueuedToStarted: latencySummary(enqueuedToStarted),
      startedToFinished: latencySummary(startedToFinished),
    };
  } finally {
    await queue.close();
  }
}
