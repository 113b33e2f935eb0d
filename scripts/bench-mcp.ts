/**
 * npm run bench:mcp — the latency an MCP tool adds over the REST call it wraps.
 * Same run, same process, interleaved (the order of the pair alternates each iteration):
 *   baseline  SnsAuctionClient.getAuction(id)            (one REST call over loopback HTTP)
 *   mcp       Client.callTool('auction_get', {auctionId}) over InMemoryTransport → the same call
 * plus, to isolate the MCP layer, the tool over a REST client whose fetch answers from memory.
 * The API is wired as in production (bench/api-fixture: private Redis, localnet process).
 * Options: --iterations 3000 --warmup 200 --keys 10. Progress to stderr, the JSON summary to stdout.
 * Target: added p50 ≤ 2 ms.
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pino } from 'pino';
import type { McpContext } from '../mcp/context.js';
import { buildMcpServer } from '../mcp/server.js';
import { PreparedStore } from '../mcp/signing/prepared-store.js';
import { SnsAuctionClient } from '../src/client/sns-auction-client.js';
import { startApiFixture } from './bench/api-fixture.js';
import { createLiveAuctions } from './bench/live-auctions.js';
import { latencySummary, machineDescription, progress } from './bench/measure.js';

const { values } = parseArgs({
  options: { iterations: { type: 'string' }, warmup: { type: 'string' }, keys: { type: 'string' } },
});
const ITERATIONS = Number(values.iterations ?? 3_000);
const WARMUP = Number(values.warmup ?? 200);
// GET /auctions/:id allows 1,000 calls a minute per key: spread the calls over a key pool.
const KEYS = Number(values.keys ?? 10);
const TARGET_ADDED_P50_MS = 2;

interface Lane {
  readonly rest: SnsAuctionClient;
  readonly mcp: Client;
}

async function connect(ctx: McpContext): Promise<Client> {
  const server = buildMcpServer(ctx);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  await client.connect(c);
  await client.listTools(); // the client caches output validators, as a host does
  return client;
}

function contextOf(client: SnsAuctionClient, me: Awaited<ReturnType<SnsAuctionClient['me']>>): McpContext {
  return {
    client,
    me,
    connection: null,
    prepared: new PreparedStore(),
    signer: null,
    logger: pino({ level: 'silent' }),
    nowMs: Date.now,
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function main() {
  progress(`bench:mcp — ${machineDescription()}`);
  const fixture = await startApiFixture();
  try {
    const baseUrl = `${fixture.apiUrl}${fixture.apiPrefix}`;
    progress('creating a live auction with a bid history');
    const live = await createLiveAuctions({
      connection: fixture.deps.connection,
      rpcUrl: fixture.rpcUrl,
      index: fixture.deps.auctionIndex,
      perType: 1,
      bidderCount: 2,
    });
    const auctionId = live.auctions.find((a) => a.type === 'standard')!.address;
    const keys = await fixture.createKeys(KEYS, live.bidders);
    const lanes: Lane[] = [];
    for (const key of keys) {
      const rest = new SnsAuctionClient({ baseUrl, apiKey: key });
      lanes.push({ rest, mcp: await connect(contextOf(rest, await rest.me())) });
    }

    // The MCP layer alone: the same tool, its REST client answered from memory (no network).
    const recorded = await fetch(`${baseUrl}/auctions/${auctionId}`, { headers: { 'x-api-key': keys[0]! } });
    const body = await recorded.text();
    const memoryFetch: typeof fetch = async () =>
      new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    const memoryRest = new SnsAuctionClient({ baseUrl, fetch: memoryFetch });
    const layerOnly = await connect(contextOf(memoryRest, await lanes[0]!.rest.me()));

    const args = { name: 'auction_get', arguments: { auctionId } };
    const direct: number[] = [];
    const viaMcp: number[] = [];
    const layer: number[] = [];
    const pairDiffs: number[] = [];
    progress(`warmup ${WARMUP}, then ${ITERATIONS} interleaved pairs over ${KEYS} keys`);
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const lane = lanes[i % lanes.length]!;
      const runRest = () => timed(() => lane.rest.getAuction(auctionId));
      const runMcp = () =>
        timed(async () => {
          const r = await lane.mcp.callTool(args);
          if (r.isError) throw new Error(JSON.stringify(r.content));
        });
      // Alternating order: neither path always runs on a warmer connection or cache.
      let d: number;
      let m: number;
      if (i % 2 === 0) {
        d = await runRest();
        m = await runMcp();
      } else {
        m = await runMcp();
        d = await runRest();
      }
      const l = await timed(() => layerOnly.callTool(args));
      if (i < WARMUP) continue;
      direct.push(d);
      viaMcp.push(m);
      layer.push(l);
      pairDiffs.push(m - d);
      if ((i - WARMUP + 1) % 500 === 0) progress(`${i - WARMUP + 1}/${ITERATIONS}`);
    }

    const rest = latencySummary(direct);
    const mcp = latencySummary(viaMcp);
    const added = latencySummary(pairDiffs);
    const summary = {
      machine: machineDescription(),
      iterations: ITERATIONS,
      tool: 'auction_get',
      restMs: rest,
      mcpMs: mcp,
      addedMs: {
        p50: round(mcp.p50 - rest.p50),
        p99: round(mcp.p99 - rest.p99),
        pairedDiffP50: added.p50,
        pairedDiffP99: added.p99,
      },
      ratioP50: round(mcp.p50 / rest.p50),
      mcpLayerOnlyMs: latencySummary(layer),
      targetAddedP50Ms: TARGET_ADDED_P50_MS,
      meetsTarget: mcp.p50 - rest.p50 <= TARGET_ADDED_P50_MS,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    for (const lane of lanes) await lane.mcp.close();
    await layerOnly.close();
  } finally {
    await fixture.close();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
