import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, startTestApi, type TestApi } from '../helpers/api.js';
import { createKey, expectError } from './fixtures.js';

/** Raw fetch, for what `call` would tidy up (content types, broken JSON). */
async function send(url: string, init: RequestInit): Promise<ApiResponse<unknown>> {
  const response = await fetch(url, init);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as ApiResponse<unknown>['body'],
  };
}

describe('error envelope', () => {
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    api = await startTestApi('http-errors');
    key = (await createKey(api.baseUrl)).key;
  });
  afterAll(() => api?.close());

  const post = (path: string, headers: Record<string, string>, body: string) =>
    send(`${api.baseUrl}${path}`, { method: 'POST', headers: { 'X-API-Key': key, ...headers }, body });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    expectError(
      await call(api.baseUrl, 'GET', '/no/such/route'),
      404,
      'NOT_FOUND',
      /GET \/api\/v1\/no\/such\/route/,
    );
    expectError(await call(api.baseUrl, 'PATCH', '/webhooks/whk_x', { key }), 404, 'NOT_FOUND');
    expectError(await send(`${api.baseUrl.replace('/api/v1', '')}/auctions`, {}), 404, 'NOT_FOUND');
  });

  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const res = await post(
      '/webhooks/create',
      { 'Content-Type': 'application/json' },
      '{"url": "https://a.example.com/",',
    );
    expectError(res, 400, 'INVALID_REQUEST');
  });

  it('answers a body that is JSON but not an object with 400 INVALID_REQUEST', async () => {
    expectError(
      await post('/webhooks/create', { 'Content-Type': 'application/json' }, '[1,2]'),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await post('/webhooks/create', { 'Content-Type': 'application/json' }, 'null'),
      400,
      'INVALID_REQUEST',
    );
  });

  it('treats an empty JSON body as no body (clients that always send the content type)', async () => {
    const created = await call<{ id: string }>(api.baseUrl, 'POST', '/keys/create', {
      key,
      body: {
        name: 'to-revoke',
        type: 'developer',
        walletAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      },
    });
    const revoked = await post(
      `/keys/${created.body.data.id}/revoke`,
      { 'Content-Type': 'application/json' },
      '',
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.success).toBe(true);
  });

  it('answers a wrong content type with a 4xx envelope', async () => {
    const res = await post(
      '/webhooks/create',
      { 'Content-Type': 'text/plain' },
      'url=https://a.example.com/',
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expectError(res, res.status, 'INVALID_REQUEST');
  });

  it('answers a body over the limit with 413 in the envelope', async () => {
    const body = JSON.stringify({
      url: 'https://a.example.com/',
      events: ['auction.bid'],
      pad: 'x'.repeat(70_000),
    });
    expectError(
      await post('/webhooks/create', { 'Content-Type': 'application/json' }, body),
      413,
      'INVALID_REQUEST',
    );
  });

  it('puts success, error, code and timestamp on every error', async () => {
    const before = Date.now();
    const responses = await Promise.all([
      call(api.baseUrl, 'GET', '/nowhere'),
      call(api.baseUrl, 'GET', '/webhooks'),
      call(api.baseUrl, 'GET', '/webhooks', { key: 'sk_test_bad' }),
      call(api.baseUrl, 'GET', '/users/xyz'),
      call(api.baseUrl, 'POST', '/webhooks/create', { key, body: {} }),
    ]);
    for (const { body } of responses) {
      expect(Object.keys(body).sort()).toEqual(
        expect.arrayContaining(['code', 'error', 'success', 'timestamp']),
      );
      expect(body.success).toBe(false);
      expect(typeof body.error).toBe('string');
      expect(body.error!.length).toBeGreaterThan(0);
      expect(body.timestamp).toBeGreaterThanOrEqual(before);
      expect(body.timestamp).toBeLessThanOrEqual(Date.now());
    }
    expect(responses.map((r) => r.body.code)).toEqual([
      'NOT_FOUND',
      'UNAUTHORIZED',
      'UNAUTHORIZED',
      'INVALID_REQUEST',
      'INVALID_REQUEST',
    ]);
  });
});
