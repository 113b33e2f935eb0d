import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../helpers/api.js';
import { type CreatedKey, createKey, expectError } from './fixtures.js';

interface Subscription {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: number;
  lastDelivery: number | null;
}
interface Created {
  subscriptionId: string;
  url: string;
  events: string[];
  createdAt: number;
  secret: string;
}

describe('webhook subscriptions over HTTP', () => {
  let api: TestApi;
  let alice: CreatedKey;
  let bob: CreatedKey;

  beforeAll(async () => {
    api = await startTestApi('http-webhooks');
    [alice, bob] = await Promise.all([createKey(api.baseUrl), createKey(api.baseUrl)]);
  });
  afterAll(() => api?.close());

  const create = (key: string, body: unknown) =>
    call<Created>(api.baseUrl, 'POST', '/webhooks/create', { key, body });

  it('creates, lists, reads, updates and deletes a subscription', async () => {
    const before = Date.now();
    const created = await create(alice.key, {
      url: 'https://Hooks.Example.com/sns',
      events: ['auction.bid', 'auction.settled'],
    });
    expect(created.status).toBe(200);
    const { subscriptionId, secret, createdAt } = created.body.data;
    expect(created.body.data).toEqual({
      subscriptionId: expect.stringMatching(/^whk_\w+$/),
      url: 'https://hooks.example.com/sns',
      events: ['auction.bid', 'auction.settled'],
      createdAt: expect.any(Number),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(created.headers.get('x-ratelimit-limit')).toBe('60');

    const expected: Subscription = {
      id: subscriptionId,
      url: 'https://hooks.example.com/sns',
      events: ['auction.bid', 'auction.settled'],
      active: true,
      createdAt,
      lastDelivery: null,
    };
    const list = await call<{ webhooks: Subscription[]; total: number }>(api.baseUrl, 'GET', '/webhooks', {
      key: alice.key,
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual({ webhooks: [expected], total: 1 });
    expect(list.headers.get('x-ratelimit-limit')).toBe('100');
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const one = await call<Subscription>(api.baseUrl, 'GET', `/webhooks/${subscriptionId}`, {
      key: alice.key,
    });
    expect(one.body.data).toEqual(expected);

    const paused = await call<Subscription>(api.baseUrl, 'PUT', `/webhooks/${subscriptionId}`, {
      key: alice.key,
      body: { active: false, events: ['auction.extended', 'auction.reserve_not_met'] },
    });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toEqual({
      ...expected,
      active: false,
      events: ['auction.extended', 'auction.reserve_not_met'],
    });

    const moved = await call<Subscription>(api.baseUrl, 'PUT', `/webhooks/${subscriptionId}`, {
      key: alice.key,
      body: { url: 'https://other.example.com/in' },
    });
    expect(moved.body.data).toEqual({ ...paused.body.data, url: 'https://other.example.com/in' });
    const reread = await call<Subscription>(api.baseUrl, 'GET', `/webhooks/${subscriptionId}`, {
      key: alice.key,
    });
    expect(reread.body.data).toEqual(moved.body.data);

    const deleted = await call(api.baseUrl, 'DELETE', `/webhooks/${subscriptionId}`, { key: alice.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, data: { success: true, deletedId: subscriptionId } });

    expectError(
      await call(api.baseUrl, 'GET', `/webhooks/${subscriptionId}`, { key: alice.key }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(api.baseUrl, 'DELETE', `/webhooks/${subscriptionId}`, { key: alice.key }),
      404,
      'NOT_FOUND',
    );
    const after = await call<{ total: number }>(api.baseUrl, 'GET', '/webhooks', { key: alice.key });
    expect(after.body.data.total).toBe(0);
  });

  it("answers 404 for another key's subscription and leaves it untouched", async () => {
    const { subscriptionId } = (
      await create(alice.key, { url: 'https://a.example.com/', events: ['auction.created'] })
    ).body.data;
    const path = `/webhooks/${subscriptionId}`;

    expectError(await call(api.baseUrl, 'GET', path, { key: bob.key }), 404, 'NOT_FOUND');
    expectError(
      await call(api.baseUrl, 'PUT', path, { key: bob.key, body: { active: false } }),
      404,
      'NOT_FOUND',
    );
    expectError(await call(api.baseUrl, 'DELETE', path, { key: bob.key }), 404, 'NOT_FOUND');
    expectError(await call(api.baseUrl, 'GET', '/webhooks/whk_unknown', { key: bob.key }), 404, 'NOT_FOUND');
    const bobs = await call<{ webhooks: unknown[]; total: number }>(api.baseUrl, 'GET', '/webhooks', {
      key: bob.key,
    });
    expect(bobs.body.data).toEqual({ webhooks: [], total: 0 });

    // A second key of Alice's account is still another key: subscriptions belong to the creating key.
    const alicesSecondKey = await createKey(api.baseUrl, { using: alice.key });
    expectError(await call(api.baseUrl, 'GET', path, { key: alicesSecondKey.key }), 404, 'NOT_FOUND');

    const still = await call<Subscription>(api.baseUrl, 'GET', path, { key: alice.key });
    expect(still.body.data).toMatchObject({ id: subscriptionId, active: true });
  });

  it.each([
    ['no url', { events: ['auction.bid'] }, /body\.url/],
    ['no events', { url: 'https://a.example.com/' }, /body\.events/],
    ['empty events', { url: 'https://a.example.com/', events: [] }, /body\.events/],
    [
      'an unknown event',
      { url: 'https://a.example.com/', events: ['auction.bid', 'auction.sold'] },
      /body\.events/,
    ],
    ['a repeated event', { url: 'https://a.example.com/', events: ['auction.bid', 'auction.bid'] }, /repeat/],
    ['a url that is not a string', { url: 42, events: ['auction.bid'] }, /body\.url/],
    [
      'a url that is not a URL',
      { url: 'hooks', events: ['auction.bid'] },
      /body\.url: must be an absolute URL/,
    ],
    ['an ftp url', { url: 'ftp://a.example.com/', events: ['auction.bid'] }, /body\.url: must use/],
    ['credentials in the url', { url: 'https://u:p@a.example.com/', events: ['auction.bid'] }, /credentials/],
    [
      'a url over 2048 characters',
      { url: `https://a.example.com/${'x'.repeat(2040)}`, events: ['auction.bid'] },
      /body\.url/,
    ],
  ])('refuses a create with %s (400 naming the field)', async (_case, body, message) => {
    expectError(await create(bob.key, body), 400, 'INVALID_REQUEST', message);
  });

  it('refuses an update with nothing to change or bad fields', async () => {
    const { subscriptionId } = (
      await create(bob.key, { url: 'https://b.example.com/', events: ['auction.bid'] })
    ).body.data;
    const put = (body: unknown) =>
      call(api.baseUrl, 'PUT', `/webhooks/${subscriptionId}`, { key: bob.key, body });
    expectError(await put({}), 400, 'INVALID_REQUEST', /at least one of url, events, active/);
    expectError(await put({ active: 'no' }), 400, 'INVALID_REQUEST', /body\.active/);
    expectError(await put({ events: [] }), 400, 'INVALID_REQUEST', /body\.events/);
    expectError(await put({ url: 'ftp://b.example.com/' }), 400, 'INVALID_REQUEST', /body\.url/);
    const unchanged = await call<Subscription>(api.baseUrl, 'GET', `/webhooks/${subscriptionId}`, {
      key: bob.key,
    });
    expect(unchanged.body.data).toMatchObject({
      url: 'https://b.example.com/',
      events: ['auction.bid'],
      active: true,
    });
  });

  it('requires a key on every webhook endpoint', async () => {
    for (const [method, path] of [
      ['POST', '/webhooks/create'],
      ['GET', '/webhooks'],
      ['GET', '/webhooks/whk_x'],
      ['PUT', '/webhooks/whk_x'],
      ['DELETE', '/webhooks/whk_x'],
    ] as const) {
      expectError(await call(api.baseUrl, method, path), 401, 'UNAUTHORIZED');
    }
  });

  it('accepts every event type and caps subscriptions per key with a clear 400', async () => {
    const carol = await createKey(api.baseUrl, { using: bob.key });
    const events = [
      'auction.created',
      'auction.bid',
      'auction.outbid',
      'auction.extended',
      'auction.settled',
      'auction.reserve_not_met',
      'auction.cancelled',
      'auction.ending_soon',
    ];
    for (let i = 0; i < 25; i++) {
      const res = await create(carol.key, { url: `https://h${i}.example.com/`, events });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expectError(
      await create(carol.key, { url: 'https://h25.example.com/', events }),
      400,
      'INVALID_REQUEST',
      /at most 25 subscriptions/,
    );
  });

  describe('with private targets refused (production rules)', () => {
    let strict: TestApi;
    let key: string;

    beforeAll(async () => {
      strict = await startTestApi('http-webhooks-ssrf', {
        localnet: api.localnet,
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
      });
      key = (await createKey(strict.baseUrl)).key;
    });
    afterAll(() => strict?.close());

    it.each([
      ['http://hooks.example.com/', /must use https:\/\//],
      ['https://127.0.0.1/', /127\.0\.0\.1 is not a public address/],
      ['https://[::1]/', /::1 is not a public address/],
      ['https://[::ffff:127.0.0.1]/', /::ffff:7f00:1 is not a public address/],
      ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not a public address/],
      ['https://10.0.0.1/', /10\.0\.0\.1 is not a public address/],
      ['https://0x7f000001/', /127\.0\.0\.1 is not a public address/],
      ['https://localhost/', /localhost is an internal name/],
    ])('refuses %s', async (url, message) => {
      const res = await call(strict.baseUrl, 'POST', '/webhooks/create', {
        key,
        body: { url, events: ['auction.bid'] },
      });
      expectError(res, 400, 'INVALID_REQUEST', message);
      expect(res.body.error).toMatch(/^invalid request: body\.url: /);
    });

    it('accepts a public address, and refuses moving it to a private one', async () => {
      const created = await call<Created>(strict.baseUrl, 'POST', '/webhooks/create', {
        key,
        body: { url: 'https://8.8.8.8/hook', events: ['auction.bid'] },
      });
      expect(created.status).toBe(200);
      const res = await call(strict.baseUrl, 'PUT', `/webhooks/${created.body.data.subscriptionId}`, {
        key,
        body: { url: 'https://192.168.1.10/hook' },
      });
      expectError(res, 400, 'INVALID_REQUEST', /192\.168\.1\.10 is not a public address/);
    });
  });
});
