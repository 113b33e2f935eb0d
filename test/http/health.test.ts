import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { call, startTestApi, type TestApi } from '../helpers/api.js';

const healthShape = (expected: { healthy: boolean; redisOk: boolean }) => ({
  success: expected.healthy,
  timestamp: expect.any(Number),
  data: {
    status: expected.healthy ? 'ok' : 'degraded',
    version: packageJson.version,
    uptimeMs: expect.any(Number),
    redis: { ok: expected.redisOk, latencyMs: expected.redisOk ? expect.any(Number) : null },
    chain: { ok: true, cluster: 'localnet', slot: expect.any(Number), latencyMs: expect.any(Number) },
    indexer: { lagSlots: null },
  },
});

describe('GET /health', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi('http-health');
  });
  afterAll(() => api?.close());

  it('reports Redis, the chain and the indexer', async () => {
    const res = await call(api.baseUrl, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(healthShape({ healthy: true, redisOk: true }));
  });

  it('is never rate limited: 150 calls in a row are all 200, without limit headers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) {
      const res = await call(api.baseUrl, 'GET', '/health');
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('answers 503 with the same shape while Redis is unreachable, and 200 once it is back', async () => {
    const down = await startTestApi('http-health-down', { localnet: api.localnet });
    try {
      down.deps.redis.disconnect();
      const res = await call(down.baseUrl, 'GET', '/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual(healthShape({ healthy: false, redisOk: false }));

      await down.deps.redis.connect();
      expect((await call(down.baseUrl, 'GET', '/health')).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
