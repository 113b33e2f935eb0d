/**
 * The runner process (`agents run <config.json>`) is SIGKILLed mid-auction, after its first bid and
 * a re-plan for the extended end. A new process started with the same config resumes the instance
 * from Redis (its delayed BullMQ job and state survived), bids at the planned time and wins.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AgentsControl, createAgentsControl } from '../../agents/runner/control.js';
import { AGENTS_QUEUE, instanceJobId } from '../../agents/runner/scheduler.js';
import { createRedisKeys } from '../../src/redis/keys.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { agentsPrefix, auctionDetail, bidsBy, cleanupPrefix, until, warpTo } from './agents-env.js';

interface Runner {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<number | null>;
}

function startRunnerProcess(configFile: string): Runner {
  const child = spawn(process.execPath, ['--import', 'tsx', 'agents/cli.ts', 'run', configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r: Runner = {
    child,
    output: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout!.on('data', (d: Buffer) => (r.output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (r.output += d.toString()));
  return r;
}

describe('runner killed and restarted mid-auction', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let naive: Wallet;
  let agent: Wallet;
  let control: AgentsControl;
  let dir: string;
  const running: Runner[] = [];
  const prefix = agentsPrefix('restart');

  beforeAll(async () => {
    env = await startAuctionApi('agents-restart', { indexer: true });
    seller = await walletWithKey(env);
    naive = await walletWithKey(env);
    agent = await walletWithKey(env);
    control = await createAgentsControl({ redisUrl: inject('redisUrl'), redisPrefix: prefix });
    dir = await mkdtemp(join(tmpdir(), 'agents-restart-'));
  });
  afterAll(async () => {
    for (const r of running) r.child.kill('SIGKILL');
    await control?.close();
    await cleanupPrefix(prefix);
    await env?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const detail = (id: string) => auctionDetail(env, seller, id);
  const ours = (id: string) => bidsBy(env, seller, id, agent);
  const planned = (at: number) =>
    until(
      `a plan for ${at}`,
      () => control.getStrategy('restart-1'),
      (s) => s?.nextWakeAt === at,
      30_000,
    );

  it('resumes the schedule from Redis and wins', { timeout: 120_000 }, async () => {
    const { auctionId } = await createViaApi(env, seller, {
      startingPrice: 1,
      minBidIncrement: 0.1,
      durationHours: 0.25,
      snipeProtectionEnabled: true,
    });
    await bidViaApi(env, naive, auctionId, 1);
    const keypairFile = join(dir, 'wallet.json');
    await writeFile(keypairFile, JSON.stringify(Array.from(agent.keypair.secretKey)), { mode: 0o600 });
    const configFile = join(dir, 'agents.json');
    await writeFile(
      configFile,
      JSON.stringify({
        apiUrl: env.baseUrl,
        apiKey: agent.key,
        walletKeypairPath: keypairFile,
        rpcUrl: env.t.localnet.rpcUrl,
        redisUrl: inject('redisUrl'),
        redisPrefix: prefix,
        pollMs: 500,
        strategies: [
          {
            id: 'restart-1',
            strategy: 'late-proxy',
            mode: 'live',
            config: { auctionId, maxBid: 3, leadSeconds: 5 },
          },
        ],
      }),
    );

    const first = startRunnerProcess(configFile);
    running.push(first);
    const d1 = await detail(auctionId);
    const window = d1.snipeWindowSeconds * 1000;
    await planned(d1.endTime - window - 5_000);
    await warpTo(env, d1.endTime - window - 5_000, 3);
    await until(
      'the first bid',
      () => ours(auctionId),
      (b) => b.length === 1,
      30_000,
    );
    await warpTo(env, d1.endTime, 30);
    await bidViaApi(env, naive, auctionId, 2);
    const d2 = await detail(auctionId);
    const arm2 = d2.endTime - window - 5_000;
    await planned(arm2);

    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    expect(first.output).toContain('BID   restart-1');
    // The schedule outlived the process: the instance's delayed job is still in Redis.
    const queue = new Queue(AGENTS_QUEUE, {
      connection: { url: inject('redisUrl') },
      prefix: createRedisKeys(prefix).bullPrefix,
    });
    const job = await queue.getJob(instanceJobId('restart-1'));
    expect(job).toBeDefined();
    expect(await job!.getState()).toMatch(/delayed|waiting|active/);
    await queue.close();

    const second = startRunnerProcess(configFile);
    running.push(second);
    await warpTo(env, arm2, 4);
    const bids = await until(
      'the second bid',
      () => ours(auctionId),
      (b) => b.length === 2,
      30_000,
    );
    expect(bids[1]!.amount).toBe(2.1);
    expect(bids[1]!.timestamp).toBeGreaterThanOrEqual(arm2);
    await warpTo(env, d2.endTime, -2);
    expect(await second.exited).toBe(0);
    expect(second.output).toMatch(/DONE {2}restart-1: won/);
    expect(await control.getStrategy('restart-1')).toMatchObject({ status: 'done', outcome: 'won' });
    expect((await detail(auctionId)).topBidder).toBe(agent.address);
  });
});
