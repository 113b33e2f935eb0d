/**
 * Typed client of the REST API v1, shared by the MCP server and the strategy runner. It speaks
 * only HTTP: every answer is the server's, types come from the same zod schemas the server
 * validates and serializes with.
 */
import type { z } from 'zod';
import { isErrorCode } from '../core/errors.js';
import type { CollectionsAnalytics, MarketAnalytics } from '../http/schemas/analytics.js';
import type {
  AuctionDetailSchema,
  AuctionListSchema,
  CreateAuctionBody,
  CreatedAuctionSchema,
  ListAuctionsQuery,
  PreparedBidSchema,
  PreparedCancelSchema,
  SettlementSchema,
} from '../http/schemas/auctions.js';
import type { ApiKeyMeSchema } from '../http/schemas/keys.js';
import type { UserProfile } from '../http/schemas/users.js';
import type {
  WebhookCreatedSchema,
  WebhookSubscriptionSchema,
  WebhookTestResultSchema,
} from '../http/schemas/webhooks.js';
import { ApiError, type RateLimitInfo } from './api-error.js';

export type AuctionList = z.output<typeof AuctionListSchema>;
export type AuctionDetail = z.output<typeof AuctionDetailSchema>;
export type AuctionListItem = AuctionList['auctions'][number];
export type ListAuctionsParams = Omit<Partial<z.input<typeof ListAuctionsQuery>>, 'page' | 'pageSize'> & {
  readonly page?: number;
  readonly pageSize?: number;
};
export type CreateAuctionRequest = z.input<typeof CreateAuctionBody>;
export type CreatedAuction = z.output<typeof CreatedAuctionSchema>;
export type PreparedBid = z.output<typeof PreparedBidSchema>;
export type PreparedCancel = z.output<typeof PreparedCancelSchema>;
export type Settlement = z.output<typeof SettlementSchema>;
export type KeyInfo = z.output<typeof ApiKeyMeSchema>;
export type WebhookSubscription = z.output<typeof WebhookSubscriptionSchema>;
export type CreatedWebhook = z.output<typeof WebhookCreatedSchema>;
export type WebhookTestResult = z.output<typeof WebhookTestResultSchema>;
export type { CollectionsAnalytics, MarketAnalytics, UserProfile };

export interface ResponseInfo {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Present on rate-limited routes. */
  readonly rateLimit: RateLimitInfo | null;
}

export interface SnsAuctionClientOptions {
  /** Base URL including `/api/v1`, e.g. `http://127.0.0.1:3000/api/v1`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** Called after every answer, e.g. to keep a bid budget in step with the server's buckets. */
  readonly onResponse?: (info: ResponseInfo) => void;
  /** Default 15 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

type TxVersion = 0 | 'legacy';

export class SnsAuctionClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #options: SnsAuctionClientOptions;
  readonly #fetch: typeof fetch;

  constructor(options: SnsAuctionClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
  }

  // ---- auctions

  listAuctions(params: ListAuctionsParams = {}, o?: CallOptions): Promise<AuctionList> {
    return this.#get(`/auctions${queryString(params)}`, o);
  }

  getAuction(id: string, o?: CallOptions): Promise<AuctionDetail> {
    return this.#get(`/auctions/${encodeURIComponent(id)}`, o);
  }

  createAuction(body: CreateAuctionRequest, o?: CallOptions): Promise<CreatedAuction> {
    return this.#send('POST', '/auctions/create', body, o);
  }

  placeBid(id: string, bidAmount: number, txVersion?: TxVersion, o?: CallOptions): Promise<PreparedBid> {
    return this.#send('POST', `/auctions/${encodeURIComponent(id)}/bid`, { bidAmount, txVersion }, o);
  }

  settleAuction(id: string, o?: CallOptions): Promise<Settlement> {
    return this.#send('POST', `/auctions/${encodeURIComponent(id)}/settle`, undefined, o);
  }

  cancelAuction(id: string, txVersion?: TxVersion, o?: CallOptions): Promise<PreparedCancel> {
    return this.#send('POST', `/auctions/${encodeURIComponent(id)}/cancel`, { txVersion }, o);
  }

  // ---- users, analytics, keys

  getUser(address: string, o?: CallOptions): Promise<UserProfile> {
    return this.#get(`/users/${encodeURIComponent(address)}`, o);
  }

  marketAnalytics(o?: CallOptions): Promise<MarketAnalytics> {
    return this.#get('/analytics/market', o);
  }

  collectionAnalytics(o?: CallOptions): Promise<CollectionsAnalytics> {
    return this.#get('/analytics/collections', o);
  }

  me(o?: CallOptions): Promise<KeyInfo> {
    return this.#get('/keys/me', o);
  }

  // ---- webhooks

  listWebhooks(o?: CallOptions): Promise<{ webhooks: WebhookSubscription[]; total: number }> {
    return this.#get('/webhooks', o);
  }

  createWebhook(url: string, events: readonly string[], o?: CallOptions): Promise<CreatedWebhook> {
    return this.#send('POST', '/webhooks/create', { url, events }, o);
  }

  deleteWebhook(id: string, o?: CallOptions): Promise<{ success: boolean; deletedId: string }> {
    return this.#send('DELETE', `/webhooks/${encodeURIComponent(id)}`, undefined, o);
  }

  testWebhook(id: string, o?: CallOptions): Promise<WebhookTestResult> {
    return this.#send('POST', `/webhooks/${encodeURIComponent(id)}/test`, undefined, o);
  }

  // ---- transport

  #get<T>(path: string, o?: CallOptions): Promise<T> {
    return this.#send('GET', path, undefined, o);
  }

  async #send<T>(method: string, path: string, body: unknown, o?: CallOptions): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#apiKey !== undefined) headers['x-api-key'] = this.#apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(this.#options.timeoutMs ?? 15_000);
    let response: Response;
    try {
      response = await this.#fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: o?.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
      });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new ApiError(
        0,
        'UNREACHABLE',
        `${method} ${path}: the API at ${this.baseUrl} did not answer (${reason})`,
      );
    }
    this.#options.onResponse?.({ method, path, status: response.status, rateLimit: rateLimitOf(response) });
    const payload = (await response.json().catch(() => null)) as Envelope<T> | null;
    if (response.ok && payload?.success === true) return payload.data;
    throw errorOf(response, payload, `${method} ${path}`);
  }
}

type Envelope<T> =
  | { success: true; data: T }
  | { success: false; error: string; code: string; details?: Record<string, unknown> };

function errorOf(response: Response, payload: Envelope<unknown> | null, what: string): ApiError {
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null;
  if (payload?.success === false && isErrorCode(payload.code)) {
    return new ApiError(
      response.status,
      payload.code,
      payload.error,
      payload.details ?? {},
      retryAfterSeconds,
    );
  }
  return new ApiError(
    response.status,
    'INTERNAL_ERROR',
    `${what}: unexpected HTTP ${response.status} answer`,
  );
}

function rateLimitOf(response: Response): RateLimitInfo | null {
  const limit = response.headers.get('x-ratelimit-limit');
  if (limit === null) return null;
  return {
    limit: Number(limit),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    resetSeconds: Number(response.headers.get('x-ratelimit-reset')),
  };
}

function queryString(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
