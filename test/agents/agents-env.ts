/**
 * A strategy runner against the real API on a real localnet, with its own Redis prefix: the
 * bidder's key and keypair, a runtime started through the same factory as the CLI, and helpers to
 * wait for instances (polling a condition with a deadline, never a fixed sleep).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import type { InstanceSummary } from '../../agents/runner/control.js';
import type { RunnerConfig } from '../../agents/runner/runtime.js';
import { type Runtime, type RuntimeOptions, startRuntime } from '../../agents/runner/runtime.js';
import type { AuctionDetail } from '../../src/client/sns-auction-client.js';
import { connectRedis } from '../../src/redis/client.js';
import { call } from '../helpers/api.js';
import { type AuctionApiEnv, expectOk, type Wallet } from '../helpers/auction-api.js';
import { deleteKeysWithPrefix } from '../helpers/redis.js';

export const agentsPrefix = (name: string) => `test:agents-${name}:${randomUUID().slice(0, 8)}:`;

export function startAgents(
  env: AuctionApiEnv,
  bidder: Wallet,
  prefix: string,
  config: Partial<RunnerConfig> = {},
  options: RuntimeOptions = {},
): Promise<Runtime> {
  return startRuntime(
    {
      apiUrl: env.baseUrl,
      apiKey: bidder.key,
      rpcUrl: env.t.localnet.rpcUrl,
      redisUrl: inject('redisUrl'),
      redisPrefix: prefix,
      pollMs: 500,
      viewMaxAgeMs: 250,
      ...config,
    },
    { keypair: bidder.keypair, ...options },
  );
}

export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: last value ${JSON.stringify(v)}`);
    await sleep(250);
  }
}

export const finishedInstance = (rt: Runtime, id: string, timeoutMs = 60_000): Promise<InstanceSummary> =>
  until(
    `instance ${id} to finish`,
    async () => (await rt.control.getStrategy(id))!,
    (s) => s.status !== 'running',
    timeoutMs,
  );

export async function cleanupPrefix(prefix: string): Promise<void> {
  const redis = await connectRedis(inject('redisUrl'));
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
}

/** GET /auctions/:id as `viewer` sees it. */
export const auctionDetail = async (env: AuctionApiEnv, viewer: Wallet, id: string): Promise<AuctionDetail> =>
  expectOk(await call<AuctionDetail>(env.baseUrl, 'GET', `/auctions/${id}`, { key: viewer.key }));

/** The bids `bidder` placed on auction `id`, as `viewer` sees them. */
export const bidsBy = async (env: AuctionApiEnv, viewer: Wallet, id: string, bidder: Wallet) =>
  (await auctionDetail(env, viewer, id)).bids.filter((b) => b.bidder === bidder.address);

/** Warps chain time to `secondsBefore` seconds before `atMs` (Unix ms; negative: after it). */
export const warpTo = async (env: AuctionApiEnv, atMs: number, secondsBefore: number): Promise<void> => {
  await env.t.warp(Math.floor(atMs / 1000) - secondsBefore - Number(await env.t.chainTime()));
};
