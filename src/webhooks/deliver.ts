import type { DeliveryLog } from './delivery-log.js';
import type { SubscriptionDeliveryState } from './delivery-state.js';
import { type GuardedPostOptions, guardedPost } from './guarded-post.js';
import { webhookHeaders } from './signature.js';
import { signingSecrets, type WebhookTarget } from './subscription-store.js';

export interface DeliveryContext {
  readonly state: SubscriptionDeliveryState;
  readonly log: DeliveryLog;
  readonly post: GuardedPostOptions;
  readonly deactivateAfterMs: number;
  readonly nowMs?: () => number;
}

export interface DeliveryRequest {
  readonly eventId: string;
  readonly event: string;
  /** The exact body, identical on every attempt. */
  readonly body: string;
  readonly attempt: number;
  /** False for `webhook.test`: a test neither sets `lastDelivery` nor counts toward deactivation. */
  readonly countsTowardHealth: boolean;
}

export type DeliveryResult =
  | { readonly outcome: 'delivered'; readonly statusCode: number; readonly durationMs: number }
  | {
      readonly outcome: 'failed' | 'gone';
      readonly statusCode: number | null;
      readonly error: string;
      /** The receiver's `Retry-After` on 429/503. */
      readonly retryAfterMs: number | null;
      readonly durationMs: number;
    };

/**
 * One signed attempt: 2xx is success; a redirect is a failure (never followed); 410 Gone
 * deactivates the subscription. Every attempt is logged and moves the subscription's health.
 * Signed at send time, so the timestamp is this attempt's and a rotated secret applies at once.
 */
export async function deliverOnce(
  target: WebhookTarget,
  request: DeliveryRequest,
  context: DeliveryContext,
): Promise<DeliveryResult> {
  const now = context.nowMs ?? Date.now;
  const sentAt = now();
  const headers = webhookHeaders(
    signingSecrets(target, sentAt),
    request.eventId,
    request.event,
    Math.floor(sentAt / 1_000),
    request.body,
  );
  const outcome = await guardedPost(target.url, headers, request.body, context.post);
  const result = classify(outcome);
  const at = now();
  // The log entry and the health update are independent writes: sent together, one round trip.
  const logged = context.log.record(target.id, {
    eventId: request.eventId,
    event: request.event,
    attempt: request.attempt,
    at,
    success: result.outcome === 'delivered',
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.outcome === 'delivered' ? null : result.error,
    response: outcome.kind === 'response' ? outcome.responseBody : null,
  });
  const health = !request.countsTowardHealth
    ? undefined
    : result.outcome === 'delivered'
      ? context.state.recordSuccess(target.id, at)
      : result.outcome === 'gone'
        ? context.state.deactivate(target.id)
        : context.state.recordFailure(target.id, at, context.deactivateAfterMs);
  await Promise.all([logged, health]);
  return result;
}

function classify(outcome: Awaited<ReturnType<typeof guardedPost>>): DeliveryResult {
  const { durationMs } = outcome;
  if (outcome.kind === 'error')
    return { outcome: 'failed', statusCode: null, error: outcome.error, retryAfterMs: null, durationMs };
  const { statusCode } = outcome;
  if (statusCode >= 200 && statusCode < 300) return { outcome: 'delivered', statusCode, durationMs };
  if (statusCode === 410)
    return {
      outcome: 'gone',
      statusCode,
      error: '410 Gone: subscription deactivated',
      retryAfterMs: null,
      durationMs,
    };
  const error =
    statusCode >= 300 && statusCode < 400
      ? `redirect ${statusCode} not followed`
      : `receiver answered ${statusCode}`;
  const retryAfterMs = statusCode === 429 || statusCode === 503 ? outcome.retryAfterMs : null;
  return { outcome: 'failed', statusCode, error, retryAfterMs, durationMs };
}
