import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures: HMAC-SHA256 over `${id}.${timestampSeconds}.${body}` keyed with the
 * base64-decoded secret after `whsec_`. One `v1,<base64>` entry per valid secret, space-separated,
 * so receivers keep verifying during a secret rotation.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}

/** The spec's `X-Webhook-*` headers and their Standard Webhooks twins, with the same values. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  event: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = signatureHeader(secrets, id, timestampSeconds, body);
  const timestamp = String(timestampSeconds);
  return {
    'content-type': 'application/json',
    'user-agent': 'sns-auction-webhooks/1',
    'x-webhook-id': id,
    'x-webhook-event': event,
    'x-webhook-timestamp': timestamp,
    'x-webhook-signature': signature,
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
}
