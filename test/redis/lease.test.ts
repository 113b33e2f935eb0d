import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisKeys } from '../../src/redis/keys.js';
import { type LeaderOptions, RedisLease, runWhileLeader } from '../../src/redis/lease.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

let t: TestRedis;
beforeAll(async () => {
  t = await createTestRedis('lease');
});
afterAll(() => t.cleanup());

describe('RedisLease', () => {
  it('is held by one instance at a time, and only its holder renews or releases it', async () => {
    const key = `${t.prefix}lease:one`;
    const [a, b] = [new RedisLease(t.redis, key, 10_000), new RedisLease(t.redis, key, 10_000)];
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await a.acquire()).toBe(true);
    expect(await b.renew()).toBe(false);
    expect(await b.release()).toBe(false);
    expect(await a.holder()).toBe(a.token);
    expect(await t.redis.pttl(key)).toBeGreaterThan(9_000);

    expect(await a.release()).toBe(true);
    expect(await b.acquire()).toBe(true);
    expect(await a.renew()).toBe(false);
    expect(await b.holder()).toBe(b.token);
  });
});

/** An instance contending for the lease: `nextChange()` resolves when it starts or stops leading. */
function contender(name: string, overrides: Partial<LeaderOptions> = {}) {
  const stop = new AbortController();
  const changes: boolean[] = [];
  let onChange: ((leading: boolean) => void) | null = null;
  let work: AbortSignal | null = null;
  const nextChange = () =>
    new Promise<boolean>((resolve) => {
      onChange = resolve;
    });
  const done = runWhileLeader(
    {
      redis: t.redis,
      keys: createRedisKeys(t.prefix),
      name,
      ttlMs: 300,
      retryEveryMs: 20,
      signal: stop.signal,
      onLeadershipChange(leading) {
        changes.push(leading);
        onChange?.(leading);
      },
      ...overrides,
    },
    async (signal) => {
      work = signal;
      await once(signal, 'abort');
    },
  );
  return { stop: () => stop.abort(), done, changes, nextChange, work: () => work };
}

/** Resolves once the lease at `key` has been renewed `count` times (its TTL rose), polling Redis. */
async function renewals(key: string, count: number): Promise<void> {
  let last = await t.redis.pttl(key);
  for (let seen = 0; seen < count; ) {
    const ttl = await t.redis.pttl(key);
    if (ttl > last) seen++;
    last = ttl;
  }
}

describe('runWhileLeader', () => {
  it('takes over a lease whose holder stopped renewing once it expires', async () => {
    const abandoned = new RedisLease(t.redis, createRedisKeys(t.prefix).lease('abandoned'), 100);
    expect(await abandoned.acquire()).toBe(true);
    const c = contender('abandoned');
    expect(await c.nextChange()).toBe(true);
    expect(await abandoned.renew()).toBe(false);
    c.stop();
    await c.done;
  });

  it('runs on one of two instances; when it stops, the other takes over', async () => {
    const first = contender('pair');
    expect(await first.nextChange()).toBe(true);
    const second = contender('pair');
    const takeover = second.nextChange();
    // Three renewals by the first (its TTL goes back up) span more than the 300 ms TTL, all while
    // the second keeps trying to take the lease.
    await renewals(createRedisKeys(t.prefix).lease('pair'), 3);
    expect(second.changes).toEqual([]);

    first.stop();
    await first.done;
    expect(first.changes).toEqual([true, false]);
    expect(await takeover).toBe(true);
    second.stop();
    await second.done;
    expect(await t.redis.exists(createRedisKeys(t.prefix).lease('pair'))).toBe(0);
  });

  it('aborts the work when the lease is taken over, then contends again', async () => {
    const c = contender('lost');
    expect(await c.nextChange()).toBe(true);
    const lost = once(c.work()!, 'abort');
    const stopped = c.nextChange();
    await t.redis.set(createRedisKeys(t.prefix).lease('lost'), 'someone-else', 'PX', 200);
    await lost;
    expect(await stopped).toBe(false);
    // The stolen lease expires and this instance leads again.
    expect(await c.nextChange()).toBe(true);
    c.stop();
    await c.done;
  });

  it('runs the work again after it fails, reporting the failure', async () => {
    const stop = new AbortController();
    const errors: unknown[] = [];
    let runs = 0;
    await runWhileLeader(
      {
        redis: t.redis,
        keys: createRedisKeys(t.prefix),
        name: 'failing',
        ttlMs: 1_000,
        retryEveryMs: 1,
        signal: stop.signal,
        onError: (e) => errors.push(e),
      },
      async () => {
        runs++;
        if (runs === 2) stop.abort();
        throw new Error(`run ${runs} failed`);
      },
    );
    expect(runs).toBe(2);
    // A failure after the work was told to stop is the stopping itself, not an error.
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1 failed']);
  });
});
