/**
 * The strategy runner's controls as MCP tools: they write to the runner's Redis through its one
 * control module, so a runner on that prefix picks the instances up. Live instances need the
 * operator's opt-in and a spend cap within the daily cap.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AgentsControl, createAgentsControl } from '../../agents/runner/control.js';
import { strategyTools } from '../../mcp/tools/strategies.js';
import { agentsPrefix, cleanupPrefix } from '../agents/agents-env.js';
import { type AuctionApiEnv, startAuctionApi, type Wallet, walletWithKey } from '../helpers/auction-api.js';
import { connectMcp, type Harness } from './mcp-harness.js';

const AUCTION = '11111111111111111111111111111111';

describe('strategy tools', () => {
  let env: AuctionApiEnv;
  let agent: Wallet;
  let control: AgentsControl;
  let mcp: Harness;
  let liveMcp: Harness;
  const prefix = agentsPrefix('mcp-tools');

  beforeAll(async () => {
    env = await startAuctionApi('mcp-strategy-tools');
    agent = await walletWithKey(env);
    control = await createAgentsControl({ redisUrl: inject('redisUrl'), redisPrefix: prefix });
    mcp = await connectMcp(env, agent, {
      extraTools: [strategyTools({ control, allowLive: false, maxLiveSpendLamports: 20_000_000_000n })],
    });
    liveMcp = await connectMcp(env, agent, {
      extraTools: [strategyTools({ control, allowLive: true, maxLiveSpendLamports: 20_000_000_000n })],
    });
  });
  afterAll(async () => {
    await mcp?.close();
    await liveMcp?.close();
    await control?.close();
    await cleanupPrefix(prefix);
    await env?.close();
  });

  it('starts, lists and stops an instance through the runner control', async () => {
    const started = await mcp.ok<{ id: string; status: string; mode: string; auctions: string[] }>(
      'strategy_start',
      { strategy: 'late-proxy', config: { auctionId: AUCTION, maxBid: 3 }, id: 'mcp-late' },
    );
    expect(started).toMatchObject({ id: 'mcp-late', status: 'running', mode: 'paper', auctions: [AUCTION] });
    expect((await control.getStrategy('mcp-late'))?.status).toBe('running');

    const listed = await mcp.ok<{ strategies: { id: string }[]; total: number }>('strategies_list');
    expect(listed.strategies.map((s) => s.id)).toContain('mcp-late');

    const stopped = await mcp.ok<{ status: string }>('strategy_stop', { id: 'mcp-late' });
    expect(stopped.status).toBe('stopped');
    expect((await control.getStrategy('mcp-late'))?.status).toBe('stopped');
    expect(await mcp.fails('strategy_stop', { id: 'nope' })).toMatch(/no instance "nope".*strategies_list/);
  });

  it('names the bad field of a strategy config', async () => {
    const text = await mcp.fails('strategy_start', { strategy: 'proxy-max', config: { auctionId: AUCTION } });
    expect(text).toMatch(/strategy_start refused: .*maxBid/);
  });

  it('refuses live instances without the operator opt-in, a spend cap, or above the daily cap', async () => {
    const live = { strategy: 'dutch-stop', mode: 'live', config: { auctionId: AUCTION, stopPrice: 2 } };
    expect(await mcp.fails('strategy_start', { ...live, maxSpendSol: 2 })).toMatch(/AGENTS_ALLOW_LIVE/);
    expect(await liveMcp.fails('strategy_start', live)).toMatch(/needs maxSpendSol/);
    expect(await liveMcp.fails('strategy_start', { ...live, maxSpendSol: 21 })).toMatch(
      /DAILY_SPEND_CAP_SOL 20/,
    );
    const ok = await liveMcp.ok<{ mode: string }>('strategy_start', {
      ...live,
      maxSpendSol: 2,
      id: 'mcp-live',
    });
    expect(ok.mode).toBe('live');
    expect((await control.listStrategies()).map((s) => s.id)).toEqual(expect.arrayContaining(['mcp-live']));
  });
});
