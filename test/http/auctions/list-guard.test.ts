/**
 * GET /auctions runs the request guard and the index query in one script (RequestGuard.runGuarded):
 * it must answer exactly like the routes guarded by the onRequest hook — refused keys at once,
 * the same limits, headers and error envelopes, the guard before query-string validation.
 * GET /users/:address (the same optional-key policy, the hook's path) is the reference.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiResponse, call, startTestApi, type TestApi } from '../../helpers/api.js';
import { type CreatedKey, createKey, expectError } from '../fixtures.js';

const MINUTE = 60_000;
const UNKNOWN_KEY = `sk_test_${'1'.repeat(32)}`;

/** Status, envelope without its timestamp, and the rate-limit headers: what must match. */
function answer(res: ApiResponse<unknown>) {
  const { timestamp: _, ...body } = res.body;
  const headers = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
  return { status: res.status, body, headers: headers.map((h) => [h, res.headers.get(h)]) };
}

describe('GET /auctions: the guard in the query’s round trip', () => {
  let api: TestApi;
  // 15 s into a wall-clock minute: 45 s remain in the bucket.
  let clock = (Math.floor(Date.now() / MINUTE) + 1) * MINUTE + 15_000;
  let owner: CreatedKey;
  const guardChecks: string[] = [];

  beforeAll(async () => {
    api = await startTestApi('http-list-guard', { nowMs: () => clock });
    owner = await createKey(api.baseUrl, { name: 'owner' });
    // Which requests took the guard's separate path (the hook, or the route's fallback).
    const check = api.app.requestGuard.check.bind(api.app.requestGuard);
    vi.spyOn(api.app.requestGuard, 'check').mockImplementation((request, reply) => {
      guardChecks.push(`${request.method} ${request.url} key=${request.headers['x-api-key'] ?? ''}`);
      return check(request, reply);
    });
  });
  afterAll(() => api?.close());

  const list = (key?: string, query = '?pageSize=5') =>
    call(api.baseUrl, 'GET', `/auctions${query}`, { key });
  const user = (key?: string) => call(api.baseUrl, 'GET', `/users/${owner.walletAddress}`, { key });
  const listChecks = () => guardChecks.filter((r) => r.startsWith('GET /api/v1/auctions'));

  it('serves a page in one script, counting the key like other routes', async () => {
    const key = await createKey(api.baseUrl, { using: owner.key, type: 'readonly' });
    const res = await list(key.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ auctions: [], total: 0, page: 1, pageSize: 5 });
    expect(answer(res).headers).toEqual(answer(await user(key.key)).headers); // 1000, 999, 45, none
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(listChecks()).toEqual([]);
  });

  it('refuses revoked, unknown and malformed keys at once, as the hook does', async () => {
    const doomed = await createKey(api.baseUrl, { using: owner.key, name: 'doomed' });
    expect((await list(doomed.key)).status).toBe(200);
    const revoke = await call(api.baseUrl, 'POST', `/keys/${doomed.id}/revoke`, { key: owner.key });
    expect(revoke.status).toBe(200);

    for (const [key, message] of [
      [doomed.key, 'API key has been revoked'],
      [UNKNOWN_KEY, 'invalid API key'],
      ['nope', 'invalid API key: expected sk_<environment>_<random>'],
    ] as const) {
      const res = await list(key);
      expectError(res, 401, 'UNAUTHORIZED', message);
      expect(res.body.error).toBe(message);
      expect(answer(res)).toEqual(answer(await user(key)));
      // The guard comes before the query string's validation, as on every route.
      expectError(await list(key, '?pageSize=many'), 401, 'UNAUTHORIZED', message);
    }
  });

  it('answers a bad query string with 400 after counting it in the same bucket', async () => {
    const key = await createKey(api.baseUrl, { using: owner.key });
    const bad = await list(key.key, '?pageSize=many');
    expectError(bad, 400, 'INVALID_REQUEST', /pageSize/);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(listChecks()).toContain(`GET /api/v1/auctions?pageSize=many key=${key.key}`);
    expect((await list(key.key)).headers.get('x-ratelimit-remaining')).toBe('998');
  });

  it('allows 1,000 reads a minute per key, refuses the 1,001st with 429 and Retry-After, resets next minute', async () => {
    const key = await createKey(api.baseUrl, { using: owner.key });
    const remaining: number[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const responses = await Promise.all(Array.from({ length: 50 }, () => list(key.key)));
      for (const res of responses) {
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
        expect(res.headers.get('x-ratelimit-reset')).toBe('45');
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      }
    }
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));

    for (const query of ['?pageSize=5', '?pageSize=many']) {
      const refused = await list(key.key, query);
      expectError(refused, 429, 'RATE_LIMITED', 'Rate limit exceeded. Try again in 45 seconds.');
      expect(refused.body).toMatchObject({ details: { retryAfterSeconds: 45 } });
      expect(answer(refused).headers).toEqual([
        ['x-ratelimit-limit', '1000'],
        ['x-ratelimit-remaining', '0'],
        ['x-ratelimit-reset', '45'],
        ['retry-after', '45'],
      ]);
    }

    clock += 45_000;
    const next = await list(key.key);
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('999');
  });

  it('limits anonymous reads per IP to 100 a minute, exactly like GET /users/:address', async () => {
    clock = (Math.floor(clock / MINUTE) + 1) * MINUTE + 15_000; // a fresh minute, 45 s left
    const lists = await Promise.all(Array.from({ length: 100 }, () => list()));
    const users = await Promise.all(Array.from({ length: 100 }, () => user()));
    const remainingOf = (rs: ApiResponse<unknown>[]) =>
      rs.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(lists.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(remainingOf(lists)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(remainingOf(lists)).toEqual(remainingOf(users));

    const refused = await list();
    expectError(refused, 429, 'RATE_LIMITED', 'Rate limit exceeded. Try again in 45 seconds.');
    expect(answer(refused)).toEqual(answer(await user()));
    expect(refused.headers.get('retry-after')).toBe('45');
    // Only bad query strings and malformed keys (refused without a lookup) took the separate path.
    const separate = listChecks().filter((r) => !r.includes('pageSize=many') && !r.endsWith('key=nope'));
    expect(separate).toEqual([]);
    expect(listChecks().length).toBeGreaterThan(0);
  });
});
