/** Webhook subscriptions of the key's account: push notifications of auction events. */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/event-types.js';
import { isoOf } from '../present.js';
import { count, iso } from '../schemas.js';
import { guarded, okResult } from '../tool-result.js';
import type { ToolRegistrar } from './registrar.js';

const Subscription = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  active: z.boolean(),
  createdAt: iso,
  lastDelivery: iso.nullable(),
});

export const registerWebhookTools: ToolRegistrar = (server, { client }) => {
  server.registerTool(
    'webhooks_list',
    {
      title: 'List webhooks',
      description:
        "The account's webhook subscriptions: id, target URL, subscribed events, last successful delivery.",
      outputSchema: { webhooks: z.array(Subscription), total: count },
      annotations: { readOnlyHint: true, openWorldHint: false, title: 'List webhooks' },
    },
    (extra) =>
      guarded('webhooks_list', async () => {
        const { webhooks, total } = await client.listWebhooks({ signal: extra.signal });
        return okResult({
          webhooks: webhooks.map((w) => ({
            ...w,
            createdAt: isoOf(w.createdAt),
            lastDelivery: w.lastDelivery === null ? null : isoOf(w.lastDelivery),
          })),
          total,
        });
      }),
  );

  server.registerTool(
    'webhook_create',
    {
      title: 'Create webhook',
      description:
        `Subscribes an https URL to auction events (${WEBHOOK_EVENT_TYPES.join(', ')}); the service POSTs signed JSON (Standard Webhooks) to it. ` +
        'The signing secret is in the result once and never again: hand it to whoever verifies the requests.',
      inputSchema: {
        url: z.url().describe('https URL that receives the events'),
        events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
      },
      outputSchema: {
        subscriptionId: z.string(),
        url: z.string(),
        events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
        createdAt: iso,
        secret: z.string().describe('signing secret (whsec_…), shown only now'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
        title: 'Create webhook',
      },
    },
    ({ url, events }, extra) =>
      guarded('webhook_create', async () => {
        const created = await client.createWebhook(url, events, { signal: extra.signal });
        return okResult({ ...created, createdAt: isoOf(created.createdAt) });
      }),
  );

  server.registerTool(
    'webhook_delete',
    {
      title: 'Delete webhook',
      description: 'Deletes a webhook subscription by id (from webhooks_list); its deliveries stop at once.',
      inputSchema: { webhookId: z.string().min(1).max(128) },
      outputSchema: { deleted: z.boolean(), webhookId: z.string() },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
        title: 'Delete webhook',
      },
    },
    ({ webhookId }, extra) =>
      guarded('webhook_delete', async () => {
        const r = await client.deleteWebhook(webhookId, { signal: extra.signal });
        return okResult({ deleted: r.success, webhookId: r.deletedId });
      }),
  );
};
