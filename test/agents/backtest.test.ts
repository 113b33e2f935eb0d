/**
 * Record a live run (late-proxy against a naive bidder with one extension, dutch-stop at its
 * crossing), then backtest the recorded history with a virtual clock: the same strategy code makes
 * the same bids (auction, amount, time within 2 s) and reaches the same outcomes, in-process and
 * through `agents backtest <file>`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistorySchema } from '../../agents/backtest/history.js';
import { HistoryRecorder } from '../../agents/backtest/recorder.js';
import { replay } from '../../agents/backtest/replay.js';
import type { Runtime } from '../../agents/runner/runtime.js';
import { dutchCrossingTime } from '../../src/core/auction-rules/dutch-price.js';
import {
  type AuctionApiEnv,
  bidViaApi,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../helpers/auction-api.js';
import { SOL } from '../helpers/localnet.js';
import {
  agentsPrefix,
  auctionDetail,
  bidsBy,
  cleanupPrefix,
  finishedInstance,
  startAgents,
  until,
  warpTo,
} from './agents-env.js';

describe('backtest of a recorded live run', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let naive: Wallet;
  let agent: Wallet;
  let rt: Runtime;
  let dir: string;
  const recorder = new HistoryRecorder();
  const prefix = agentsPrefix('backtest');

  beforeAll(async () => {
    env = await startAuctionApi('agents-backtest', { indexer: true });
    seller = await walletWithKey(env);
    naive = await walletWithKey(env);
    agent = await walletWithKey(env);
    rt = await startAgents(env, agent, prefix, {}, { onDetail: (d) => recorder.observe(d) });
    dir = await mkdtemp(join(tmpdir(), 'agents-backtest-'));
  });
  afterAll(async () => {
    await rt?.close(true);
    await cleanupPrefix(prefix);
    await env?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const detail = (id: string) => auctionDetail(env, seller, id);
  const ours = (id: string) => bidsBy(env, seller, id, agent);

  it('reproduces the live decisions', { timeout: 90_000 }, async () => {
    const english = await createViaApi(env, seller, {
      startingPrice: 1,
      minBidIncrement: 0.1,
      durationHours: 0.25,
      snipeProtectionEnabled: true,
    });
    const dutch = await createViaApi(env, seller, {
      type: 'dutch',
      startingPrice: 10,
      dutchEndPrice: 1,
      durationHours: 0.25,
    });
    await bidViaApi(env, naive, english.auctionId, 1);
    const specs = [
      {
        id: 'bt-late',
        strategy: 'late-proxy',
        mode: 'live' as const,
        config: { auctionId: english.auctionId, maxBid: 3, leadSeconds: 5 },
      },
      {
        id: 'bt-dutch',
        strategy: 'dutch-stop',
        mode: 'live' as const,
        config: { auctionId: dutch.auctionId, stopPrice: 7.3 },
      },
    ];
    for (const s of specs) await rt.control.startStrategy(s);

    const d = await detail(dutch.auctionId);
    const crossing = dutchCrossingTime(
      {
        startingPrice: 10n * SOL,
        dutchFloor: SOL,
        startTs: BigInt(d.startTime / 1000),
        endTs: BigInt(d.endTime / 1000),
      },
      7_300_000_000n,
    )!;
    await until(
      'both planned',
      () => rt.control.listStrategies(),
      (l) => l.every((s) => s.nextWakeAt !== null),
      20_000,
    );
    await env.t.warp(Number(crossing - (await env.t.chainTime())) - 3);
    expect(await finishedInstance(rt, 'bt-dutch', 20_000)).toMatchObject({ outcome: 'won' });

    const e1 = await detail(english.auctionId);
    const window = e1.snipeWindowSeconds * 1000;
    await warpTo(env, e1.endTime - window - 5_000, 3);
    await until(
      'first late bid',
      () => ours(english.auctionId),
      (b) => b.length === 1,
      20_000,
    );
    await warpTo(env, e1.endTime, 30);
    await bidViaApi(env, naive, english.auctionId, 2.5);
    const e2 = await detail(english.auctionId);
    await until(
      're-planned',
      async () => (await rt.control.getStrategy('bt-late'))!,
      (s) => s.nextWakeAt === e2.endTime - window - 5_000,
      20_000,
    );
    await warpTo(env, e2.endTime - window - 5_000, 3);
    await until(
      'second late bid',
      () => ours(english.auctionId),
      (b) => b.length === 2,
      20_000,
    );
    await warpTo(env, e2.endTime, -2);
    expect(await finishedInstance(rt, 'bt-late', 20_000)).toMatchObject({ outcome: 'won' });

    const history = HistorySchema.parse(
      await recorder.finish(rt.client, rt.runner.store, agent.address, specs),
    );
    expect(history.live['bt-late']!.map((b) => b.amount)).toEqual(['1100000000', '2600000000']);
    expect(history.live['bt-dutch']!).toHaveLength(1);

    const report = replay(history);
    expect(report.differences).toEqual([]);
    expect(report.instances.map((i) => [i.id, i.outcome])).toEqual([
      ['bt-late', 'won'],
      ['bt-dutch', 'won'],
    ]);
    expect(report.instances[1]!.bids[0]!.now).toBe(Number(crossing) * 1000);
    expect(report.droppedExternalBids).toBe(0);

    const file = join(dir, 'history.json');
    await writeFile(file, JSON.stringify(history));
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'agents/cli.ts',
      'backtest',
      file,
    ]);
    expect(stdout).toContain('wins 2/2');
    expect(stdout).toContain('matches the live decisions');
  });
});
