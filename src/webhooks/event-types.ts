/**
 * Every event a webhook subscription can ask for: SPEC.md's four named events, the two it leaves
 * unnamed (named in API.md: `auction.extended`, `auction.reserve_not_met`) and API.md's additions.
 */
export const WEBHOOK_EVENT_TYPES = [
  'auction.created',
  'auction.bid',
  'auction.outbid',
  'auction.extended',
  'auction.settled',
  'auction.reserve_not_met',
  'auction.cancelled',
  'auction.ending_soon',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
