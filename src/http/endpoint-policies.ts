/**
 * Who may call each endpoint and how often: SPEC.md's limits table, in one place. Buckets are
 * fixed 60-second windows aligned to the clock, per endpoint, per API key (or per client IP
 * without a key), shared by every instance through Redis.
 */
export type AuthRequirement = 'none' | 'optional' | 'required';

export interface EndpointPolicy {
  readonly auth: AuthRequirement;
  /** Write endpoints refuse `readonly` keys with 403. */
  readonly write?: boolean;
  /** Per client IP without a key; null = no limit. */
  readonly anonymous?: { readonly limit: number; readonly windowMs: number } | null;
  /** Per key; 'analytics' = the key's own analytics limit or the configured default. */
  readonly keyed?: { readonly limit: number | 'analytics'; readonly windowMs: number } | null;
}

const MINUTE = 60_000;
const perMinute = (limit: number) => ({ limit, windowMs: MINUTE });
const publicRead: EndpointPolicy = { auth: 'optional', anonymous: perMinute(100), keyed: perMinute(1000) };
const analytics: EndpointPolicy = {
  auth: 'optional',
  anonymous: perMinute(50),
  keyed: { limit: 'analytics', windowMs: MINUTE },
};
const keyedWrite = (limit: number): EndpointPolicy => ({
  auth: 'required',
  write: true,
  keyed: perMinute(limit),
});
const keyedRead = (limit: number): EndpointPolicy => ({ auth: 'required', keyed: perMinute(limit) });

export const ENDPOINT_POLICIES = {
  'GET /health': { auth: 'none' },
  'GET /openapi.json': { auth: 'none' },
  'GET /auctions': publicRead,
  'GET /auctions/:id': publicRead,
  'GET /users/:address': publicRead,
  'POST /auctions/create': keyedWrite(10),
  'POST /auctions/:id/bid': keyedWrite(60),
  'POST /auctions/:id/settle': keyedWrite(30),
  'POST /auctions/:id/cancel': keyedWrite(10),
  'GET /analytics/market': analytics,
  'GET /analytics/collections': analytics,
  'POST /webhooks/create': keyedWrite(60),
  'PUT /webhooks/:id': keyedWrite(60),
  'DELETE /webhooks/:id': keyedWrite(60),
  'POST /webhooks/:id/test': keyedWrite(60),
  'POST /webhooks/:id/rotate-secret': keyedWrite(60),
  'GET /webhooks': keyedRead(100),
  'GET /webhooks/:id': keyedRead(100),
  'GET /webhooks/:id/deliveries': keyedRead(100),
  'POST /keys/create': {
    auth: 'optional',
    anonymous: { limit: 5, windowMs: 60 * MINUTE },
    keyed: perMinute(10),
  },
  'GET /keys': keyedRead(100),
  'GET /keys/me': keyedRead(100),
  'POST /keys/:id/revoke': keyedWrite(10),
} as const satisfies Record<string, EndpointPolicy>;

export type EndpointId = keyof typeof ENDPOINT_POLICIES;

/** Failed key checks per client IP: slows down key guessing on every endpoint. */
export const AUTH_FAILURE_LIMIT = { endpoint: 'auth-failures', ...perMinute(100) } as const;
