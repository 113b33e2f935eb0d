import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../helpers/api.js';
import { createKey, expectError } from './fixtures.js';

describe('per-key analytics limit', () => {
  let api: TestApi;
  // A fixed minute, so the whole test stays in one clock-aligned bucket.
  const minute = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
  const now = minute + 1_000;

  beforeAll(async () => {
    api = await startTestApi('http-analytics-key-limit', { nowMs: () => now });
  });
  afterAll(() => api?.close());

  it('applies a key its own analytics limit (npm run admin -- analytics-limit), and the default again when reset', async () => {
    const { key, id } = await createKey(api.baseUrl);
    await api.deps.apiKeys.setAnalyticsRateLimit(id, 3);

    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await call(api.baseUrl, 'GET', '/analytics/market', { key }));
    expect(statuses.slice(0, 3).map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3']);
    expectError(statuses[3]!, 429, 'RATE_LIMITED', /^Rate limit exceeded\. Try again in 59 seconds\.$/);

    await api.deps.apiKeys.setAnalyticsRateLimit(id, null);
    const reset = await call(api.baseUrl, 'GET', '/analytics/market', { key });
    expect(reset.status).toBe(200);
    expect(reset.headers.get('x-ratelimit-limit')).toBe('200');
  });
});
