/**
 * `agents status | stop | kill` and usage errors, as a user runs them (a child process), over the
 * run's Redis. Instances are registered through the control module (no runner needed to list,
 * stop or kill them).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AgentsControl, createAgentsControl } from '../../agents/runner/control.js';
import { agentsPrefix, cleanupPrefix } from './agents-env.js';

const AUCTION = '5kvivHZ8PMwNbXc2xepXhhNKz2o7Mf3nXPV8j2vMkpwp';

describe('agents CLI', () => {
  const prefix = agentsPrefix('cli');
  let control: AgentsControl;
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'agents/cli.ts', ...args], {
      env: { ...process.env, REDIS_URL: inject('redisUrl'), REDIS_PREFIX: prefix },
    });

  beforeAll(async () => {
    control = await createAgentsControl({ redisUrl: inject('redisUrl'), redisPrefix: prefix });
  });
  afterAll(async () => {
    await control?.close();
    await cleanupPrefix(prefix);
  });

  it('lists, shows, stops and kills instances', { timeout: 60_000 }, async () => {
    expect((await cli('status')).stdout).toContain('no strategy instances');
    await control.startStrategy({
      id: 'cli-a',
      strategy: 'late-proxy',
      mode: 'paper',
      config: { auctionId: AUCTION, maxBid: 2 },
    });
    await control.startStrategy({
      id: 'cli-b',
      strategy: 'dutch-stop',
      mode: 'paper',
      config: { auctionId: AUCTION, stopPrice: 1 },
    });
    const listed = (await cli('status')).stdout;
    expect(listed).toMatch(/cli-a\s+late-proxy\s+paper\s+running\s+bids=0/);
    expect(listed).toMatch(/cli-b\s+dutch-stop/);
    expect(JSON.parse((await cli('status', 'cli-a')).stdout)).toMatchObject({
      id: 'cli-a',
      auctions: [AUCTION],
      status: 'running',
    });

    expect((await cli('stop', 'cli-a')).stdout).toMatch(/cli-a .*stopped/);
    expect((await control.getStrategy('cli-a'))!.status).toBe('stopped');
    expect((await cli('kill')).stdout).toContain('kill switch ON; 1 instance(s) were running');
    expect((await cli('kill', '--off')).stdout).toContain('kill switch off');
  });

  it('explains its usage and fails on a bad config file', { timeout: 60_000 }, async () => {
    expect((await cli()).stdout).toContain('usage: agents run <config.json>');
    const failure = await cli('run', '/nonexistent/agents.json').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('cannot read config /nonexistent/agents.json');
  });
});
