/**
 * Random bodies and query strings against the write endpoints and the list: never a 500, always the
 * envelope, and every 400 names a field of the endpoint (or the body/query as a whole).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/core/errors.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/event-types.js';
import { type ApiResponse, call } from '../../helpers/api.js';
import {
  type AuctionApiEnv,
  createViaApi,
  startAuctionApi,
  type Wallet,
  walletWithKey,
} from '../../helpers/auction-api.js';

const RUNS = 120;

describe('fuzzing the auction, key and webhook endpoints', () => {
  let env: AuctionApiEnv;
  let seller: Wallet;
  let bidder: Wallet;
  let auctionId: string;
  let clock = Date.now();

  beforeAll(async () => {
    env = await startAuctionApi('http-auction-fuzz', { nowMs: () => clock });
    seller = await walletWithKey(env);
    bidder = await walletWithKey(env, { using: seller.key });
    ({ auctionId } = await createViaApi(env, seller));
  });
  afterAll(() => env?.close());

  /** Each request in a fresh rate-limit minute: the fuzzer tests validation, not limits. */
  async function send(
    method: string,
    path: string,
    body: unknown,
    key: string | undefined,
  ): Promise<ApiResponse> {
    clock += 60_000;
    return call(env.baseUrl, method, path, { key, body });
  }

  function expectEnvelope(res: ApiResponse, fields: readonly string[], input: unknown): void {
    const context = `${JSON.stringify(input)} → ${res.status} ${JSON.stringify(res.body)}`;
    expect(res.status, context).not.toBeGreaterThanOrEqual(500);
    expect(Number.isInteger(res.body.timestamp), context).toBe(true);
    if (res.status === 200) {
      expect(res.body.success, context).toBe(true);
      expect(typeof res.body.data, context).toBe('object');
      return;
    }
    expect(res.body.success, context).toBe(false);
    expect(ERROR_CODES, context).toContain(res.body.code);
    expect(typeof res.body.error, context).toBe('string');
    if (res.status === 400 && res.body.code === 'INVALID_REQUEST') {
      const message = res.body.error!.toLowerCase();
      expect(
        fields.some((f) => message.includes(f.toLowerCase())),
        context,
      ).toBe(true);
    }
  }

  const junk = fc.oneof(fc.jsonValue(), fc.string(), fc.double(), fc.integer(), fc.constant(null));
  const sol = fc.oneof(
    fc.double({ min: -1, max: 1e20, noNaN: true }),
    fc.integer({ min: -5, max: 1e6 }),
    junk,
  );
  const domain = fc.oneof(
    fc.stringMatching(/^[a-z0-9-]{1,70}\.sol$/),
    fc.string({ maxLength: 80 }),
    fc.constant('unregistered-fuzz.sol'),
  );
  /** A body or something that is not one: arrays, scalars, nothing, or raw non-JSON text. */
  const bodyOf = (record: fc.Arbitrary<Record<string, unknown>>) =>
    fc.oneof(
      { weight: 6, arbitrary: record },
      fc.jsonValue(),
      fc.constant(undefined),
      fc.constant('{"unterminated'),
    );

  const CREATE_FIELDS = [
    'body',
    'domainNames',
    'type',
    'startingPrice',
    'minBidIncrement',
    'durationHours',
    'reservePrice',
    'buyNowPrice',
    'dutchEndPrice',
    'snipeProtectionEnabled',
    'snipeExtensionSeconds',
    'title',
    'category',
    'tags',
    'startTime',
    'txVersion',
  ];
  it('POST /auctions/create', async () => {
    const record = fc.record(
      {
        domainNames: fc.oneof(fc.array(domain, { maxLength: 7 }), junk),
        type: fc.oneof(fc.constantFrom('standard', 'dutch', 'reserve', 'buy_now'), junk),
        startingPrice: sol,
        minBidIncrement: sol,
        durationHours: fc.oneof(fc.double({ min: -1, max: 1000, noNaN: true }), junk),
        reservePrice: sol,
        buyNowPrice: sol,
        dutchEndPrice: sol,
        snipeProtectionEnabled: fc.oneof(fc.boolean(), junk),
        snipeExtensionSeconds: fc.oneof(fc.integer({ min: -10, max: 100_000 }), junk),
        title: fc.oneof(fc.string({ maxLength: 130 }), junk),
        tags: fc.oneof(fc.array(fc.string({ maxLength: 40 }), { maxLength: 12 }), junk),
        startTime: fc.oneof(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), junk),
        txVersion: fc.oneof(fc.constantFrom(0, 'legacy', 1), junk),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(bodyOf(record), async (body) =>
        expectEnvelope(await send('POST', '/auctions/create', body, seller.key), CREATE_FIELDS, body),
      ),
      { numRuns: RUNS },
    );
  });

  it('POST /auctions/:id/bid', async () => {
    const record = fc.record(
      {
        bidAmount: sol,
        auctionId: fc.oneof(fc.constant(auctionId), junk),
        txVersion: fc.oneof(fc.constantFrom(0, 'legacy'), junk),
      },
      { requiredKeys: [] },
    );
    const id = fc.oneof(
      { weight: 4, arbitrary: fc.constant(auctionId) },
      fc.string({ minLength: 1, maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(id, bodyOf(record), async (target, body) => {
        const res = await send('POST', `/auctions/${encodeURIComponent(target)}/bid`, body, bidder.key);
        expectEnvelope(res, ['body', 'bidAmount', 'auctionId', 'txVersion', 'path.id'], { target, body });
      }),
      { numRuns: RUNS },
    );
  });

  it('GET /auctions with random query strings', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.integer({ min: -10, max: 1e7 }).map(String),
      fc.double().map(String),
      fc.constantFrom(
        'active',
        'ended',
        'upcoming',
        'cancelled',
        'standard',
        'dutch',
        'endTime',
        'desc',
        seller.address,
      ),
    );
    const names = fc.constantFrom(
      'page',
      'pageSize',
      'status',
      'type',
      'seller',
      'search',
      'sortBy',
      'sortOrder',
      'other',
    );
    const query = fc.array(fc.tuple(names, value), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const qs = new URLSearchParams(pairs).toString();
        const res = await send('GET', `/auctions?${qs}`, undefined, undefined);
        expectEnvelope(res, ['query.'], pairs);
      }),
      { numRuns: RUNS },
    );
  });

  it('POST /keys/create', async () => {
    const record = fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 80 }), junk),
        type: fc.oneof(fc.constantFrom('agent', 'developer', 'readonly'), junk),
        walletAddress: fc.oneof(fc.constant(bidder.address), fc.string({ maxLength: 50 }), junk),
        expirationDays: fc.oneof(fc.integer({ min: -5, max: 5000 }), junk),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(bodyOf(record), async (body) =>
        expectEnvelope(
          await send('POST', '/keys/create', body, seller.key),
          ['body', 'name', 'type', 'walletAddress', 'expirationDays'],
          body,
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('POST /webhooks/create', async () => {
    const record = fc.record(
      {
        url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 100 }), junk),
        events: fc.oneof(
          fc.array(fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_TYPES), fc.string()), { maxLength: 4 }),
          junk,
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(bodyOf(record), async (body) =>
        expectEnvelope(
          await send('POST', '/webhooks/create', body, seller.key),
          ['body', 'url', 'events'],
          body,
        ),
      ),
      { numRuns: RUNS },
    );
  });
});
