import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../helpers/api.js';
import { createKey, expectError, randomWallet } from './fixtures.js';

describe('API keys over HTTP', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi('http-keys');
  });
  afterAll(() => api?.close());

  it('bootstraps a key without a key and returns it once with its record', async () => {
    const walletAddress = randomWallet();
    const before = Date.now();
    const res = await call(api.baseUrl, 'POST', '/keys/create', {
      body: { name: 'first', type: 'agent', walletAddress, expirationDays: 30 },
    });
    expect(res.status).toBe(200);
    const data = res.body.data as Record<string, unknown> & { key: string; createdAt: number };
    expect(data).toEqual({
      key: expect.stringMatching(/^sk_test_[1-9A-HJ-NP-Za-km-z]{20,}$/),
      id: expect.stringMatching(/^key_/),
      prefix: data.key.slice(0, 12),
      name: 'first',
      type: 'agent',
      walletAddress,
      createdAt: expect.any(Number),
      expiresAt: data.createdAt + 30 * 86_400_000,
    });
    expect(data.createdAt).toBeGreaterThanOrEqual(before);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');

    const me = await call(api.baseUrl, 'GET', '/keys/me', { key: data.key });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: data['id'], type: 'agent', walletAddress, revokedAt: null });
    expect(me.body.data).not.toHaveProperty('key');
  });

  it('refuses the 6th bootstrap in an hour from one IP with 429 and Retry-After', async () => {
    const fresh = await startTestApi('http-keys-bootstrap', { localnet: api.localnet });
    try {
      const first = await createKey(fresh.baseUrl);
      for (let i = 0; i < 4; i++) await createKey(fresh.baseUrl);
      const res = await call(fresh.baseUrl, 'POST', '/keys/create', {
        body: { name: 'sixth', type: 'developer', walletAddress: randomWallet() },
      });
      expectError(res, 429, 'RATE_LIMITED', /^Rate limit exceeded\. Try again in \d+ seconds\.$/);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(res.body.error).toBe(`Rate limit exceeded. Try again in ${retryAfter} seconds.`);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');

      // Creating with a key is not the bootstrap path and has its own limit.
      await createKey(fresh.baseUrl, { using: first.key });
    } finally {
      await fresh.close();
    }
  });

  describe('with an account', () => {
    let owner: Awaited<ReturnType<typeof createKey>>;
    let other: Awaited<ReturnType<typeof createKey>>;

    beforeAll(async () => {
      owner = await createKey(api.baseUrl, { name: 'owner' });
      other = await createKey(api.baseUrl, { name: 'other account' });
    });

    it('adds a key created with a key to the same account and lists the account without secrets', async () => {
      const second = await createKey(api.baseUrl, { using: owner.key, name: 'second', type: 'agent' });
      const [ownerMe, secondMe] = await Promise.all([
        call<{ accountId: string }>(api.baseUrl, 'GET', '/keys/me', { key: owner.key }),
        call<{ accountId: string }>(api.baseUrl, 'GET', '/keys/me', { key: second.key }),
      ]);
      expect(secondMe.body.data.accountId).toBe(ownerMe.body.data.accountId);

      const list = await call<{ keys: { id: string; name: string }[]; total: number }>(
        api.baseUrl,
        'GET',
        '/keys',
        {
          key: second.key,
        },
      );
      expect(list.status).toBe(200);
      expect(list.body.data.keys.map((k) => k.name)).toEqual(['owner', 'second']);
      expect(list.body.data.total).toBe(2);
      expect(JSON.stringify(list.body)).not.toContain(owner.key);
      expect(JSON.stringify(list.body)).not.toContain(second.key);
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(list.headers.get(header), header).toMatch(/^\d+$/);
      }
      expect(list.headers.get('x-ratelimit-limit')).toBe('100');

      const otherList = await call<{ keys: { name: string }[] }>(api.baseUrl, 'GET', '/keys', {
        key: other.key,
      });
      expect(otherList.body.data.keys.map((k) => k.name)).toEqual(['other account']);
    });

    it('revokes a key: the very next request with it is 401', async () => {
      const doomed = await createKey(api.baseUrl, { using: owner.key, name: 'doomed' });
      expect((await call(api.baseUrl, 'GET', '/keys/me', { key: doomed.key })).status).toBe(200);

      const revoked = await call<{ revokedAt: number }>(api.baseUrl, 'POST', `/keys/${doomed.id}/revoke`, {
        key: owner.key,
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.revokedAt).toEqual(expect.any(Number));

      expectError(
        await call(api.baseUrl, 'GET', '/keys/me', { key: doomed.key }),
        401,
        'UNAUTHORIZED',
        /revoked/,
      );
      expectError(
        await call(api.baseUrl, 'POST', '/webhooks/create', {
          key: doomed.key,
          body: { url: 'https://hooks.example.com/', events: ['auction.bid'] },
        }),
        401,
        'UNAUTHORIZED',
        /revoked/,
      );
    });

    it("answers 404 for another account's key, which stays usable", async () => {
      expectError(
        await call(api.baseUrl, 'POST', `/keys/${owner.id}/revoke`, { key: other.key }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await call(api.baseUrl, 'POST', '/keys/key_doesnotexist/revoke', { key: other.key }),
        404,
        'NOT_FOUND',
      );
      expect((await call(api.baseUrl, 'GET', '/keys/me', { key: owner.key })).status).toBe(200);
    });

    it.each([
      ['name too long', { name: 'n'.repeat(65) }, 'body.name'],
      ['empty name', { name: '' }, 'body.name'],
      ['unknown type', { type: 'admin' }, 'body.type'],
      ['bad wallet', { walletAddress: 'not-a-wallet' }, 'body.walletAddress'],
      ['expirationDays 0', { expirationDays: 0 }, 'body.expirationDays'],
      ['expirationDays 3651', { expirationDays: 3651 }, 'body.expirationDays'],
      ['expirationDays 1.5', { expirationDays: 1.5 }, 'body.expirationDays'],
      ['missing walletAddress', { walletAddress: undefined }, 'body.walletAddress'],
    ])('refuses a body with %s: 400 naming the field', async (_case, change, field) => {
      const body = { name: 'k', type: 'developer', walletAddress: randomWallet(), ...change };
      const res = await call(api.baseUrl, 'POST', '/keys/create', { key: other.key, body });
      expectError(res, 400, 'INVALID_REQUEST', field);
    });

    it('refuses write endpoints to a readonly key with 403 "read-only key" but serves it reads', async () => {
      const readonly = await createKey(api.baseUrl, { using: owner.key, type: 'readonly', name: 'reader' });
      expectError(
        await call(api.baseUrl, 'POST', `/keys/${owner.id}/revoke`, { key: readonly.key }),
        403,
        'UNAUTHORIZED',
        /read-only key/,
      );
      expectError(
        await call(api.baseUrl, 'POST', '/webhooks/create', {
          key: readonly.key,
          body: { url: 'https://hooks.example.com/', events: ['auction.bid'] },
        }),
        403,
        'UNAUTHORIZED',
        /read-only key/,
      );
      expect((await call(api.baseUrl, 'GET', '/keys', { key: readonly.key })).status).toBe(200);
      expect((await call(api.baseUrl, 'GET', '/webhooks', { key: readonly.key })).status).toBe(200);
    });
  });

  it('answers 401 without a key on key-required endpoints', async () => {
    for (const [method, path] of [
      ['GET', '/keys'],
      ['GET', '/keys/me'],
      ['POST', '/keys/key_x/revoke'],
    ] as const) {
      expectError(await call(api.baseUrl, method, path), 401, 'UNAUTHORIZED', /X-API-Key/);
    }
  });

  it('answers 401 to malformed and unknown keys', async () => {
    expectError(await call(api.baseUrl, 'GET', '/keys/me', { key: 'hello' }), 401, 'UNAUTHORIZED', /sk_/);
    expectError(
      await call(api.baseUrl, 'GET', '/keys/me', { key: `sk_test_${'1'.repeat(32)}` }),
      401,
      'UNAUTHORIZED',
      /invalid API key/,
    );
    // A bad key is refused even where a key is optional: it is not silently treated as anonymous.
    expectError(
      await call(api.baseUrl, 'GET', '/analytics/market', { key: `sk_live_${'2'.repeat(32)}` }),
      401,
      'UNAUTHORIZED',
    );
  });
});
