import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../composition.js';
import { AppError } from '../../core/errors.js';
import { deliverOnce } from '../../webhooks/deliver.js';
import { DEFAULT_DELIVERY_SETTINGS } from '../../webhooks/delivery-settings.js';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/event-types.js';
import { deliveryContext } from '../../webhooks/start-webhooks.js';
import type { WebhookSubscription } from '../../webhooks/subscription-store.js';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '../../webhooks/url-guard.js';
import { envelopeOf, ok } from '../envelope.js';
import { requireApiKey } from '../request-guard.js';
import { KEY_REQUIRED } from '../schemas/common.js';
import {
  WebhookAttemptSchema,
  WebhookCreatedSchema,
  WebhookRotatedSchema,
  WebhookSubscriptionSchema,
  WebhookTestResultSchema,
} from '../schemas/webhooks.js';

const UrlField = z
  .string()
  .min(1)
  .max(MAX_WEBHOOK_URL_LENGTH)
  .describe('delivery target: https:// on a public host, no credentials, at most 2048 characters');
const EventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .refine((events) => new Set(events).size === events.length, { message: 'must not repeat an event type' })
  .describe('event types to receive, at least one');

const CreateBody = z.object({ url: UrlField, events: EventsField });
const UpdateBody = z
  .object({ url: UrlField.optional(), events: EventsField.optional(), active: z.boolean().optional() })
  .refine((b) => b.url !== undefined || b.events !== undefined || b.active !== undefined, {
    message: 'send at least one of url, events, active',
  });
const IdParams = z.object({ id: z.string().min(1).max(64).describe('subscription id, whk_…') });

const view = (s: WebhookSubscription) => ({
  id: s.id,
  url: s.url,
  events: [...s.events],
  active: s.active,
  createdAt: s.createdAt,
  lastDelivery: s.lastDelivery,
});

/** Webhook subscriptions of the calling API key; other keys' subscriptions are 404. */
export const webhookRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const store = deps.webhooks;
  const delivery = deliveryContext(deps);

  async function guardUrl(raw: string): Promise<string> {
    const check = await checkWebhookUrl(raw, { allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
    if (!check.ok) {
      throw new AppError('INVALID_REQUEST', `invalid request: body.url: ${check.reason}`, {
        details: { field: 'url' },
      });
    }
    return check.url.href;
  }

  const notFound = (id: string) => new AppError('NOT_FOUND', `no webhook subscription ${id}`);

  app.post(
    '/webhooks/create',
    {
      config: { endpoint: 'POST /webhooks/create' },
      schema: {
        tags: ['webhooks'],
        summary: 'Subscribe a URL to auction events; the response carries the signing secret once',
        security: KEY_REQUIRED,
        body: CreateBody,
        response: { 200: envelopeOf(WebhookCreatedSchema) },
      },
    },
    async (request) => {
      const key = requireApiKey(request);
      const url = await guardUrl(request.body.url);
      const { subscription, secret } = await store.create(
        key.id,
        { url, events: request.body.events },
        Date.now(),
      );
      const { id: subscriptionId, url: stored, events, createdAt } = view(subscription);
      return ok({ subscriptionId, url: stored, events, createdAt, secret });
    },
  );

  app.get(
    '/webhooks',
    {
      config: { endpoint: 'GET /webhooks' },
      schema: {
        tags: ['webhooks'],
        summary: "The calling key's subscriptions",
        security: KEY_REQUIRED,
        response: {
          200: envelopeOf(
            z.object({ webhooks: z.array(WebhookSubscriptionSchema), total: z.number().int() }),
          ),
        },
      },
    },
    async (request) => {
      const webhooks = (await store.list(requireApiKey(request).id)).map(view);
      return ok({ webhooks, total: webhooks.length });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: { endpoint: 'GET /webhooks/:id' },
      schema: {
        tags: ['webhooks'],
        summary: 'One subscription of the calling key',
        security: KEY_REQUIRED,
        params: IdParams,
        response: { 200: envelopeOf(WebhookSubscriptionSchema) },
      },
    },
    async (request) => {
      const subscription = await store.get(requireApiKey(request).id, request.params.id);
      if (!subscription) throw notFound(request.params.id);
      return ok(view(subscription));
    },
  );

  app.put(
    '/webhooks/:id',
    {
      config: { endpoint: 'PUT /webhooks/:id' },
      schema: {
        tags: ['webhooks'],
        summary: 'Change the url, events or active flag; returns the updated subscription',
        security: KEY_REQUIRED,
        params: IdParams,
        body: UpdateBody,
        response: { 200: envelopeOf(WebhookSubscriptionSchema) },
      },
    },
    async (request) => {
      const key = requireApiKey(request);
      const { url, events, active } = request.body;
      // Ownership first, so a foreign id is 404 even when its new URL would be refused.
      if (!(await store.get(key.id, request.params.id))) throw notFound(request.params.id);
      const changes = { url: url === undefined ? undefined : await guardUrl(url), events, active };
      const updated = await store.update(key.id, request.params.id, changes);
      if (!updated) throw notFound(request.params.id);
      return ok(view(updated));
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { endpoint: 'DELETE /webhooks/:id' },
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a subscription; deliveries stop at once',
        security: KEY_REQUIRED,
        params: IdParams,
        response: { 200: envelopeOf(z.object({ success: z.literal(true), deletedId: z.string() })) },
      },
    },
    async (request) => {
      const deleted = await store.delete(requireApiKey(request).id, request.params.id);
      if (!deleted) throw notFound(request.params.id);
      return ok({ success: true as const, deletedId: request.params.id });
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { endpoint: 'GET /webhooks/:id/deliveries' },
      schema: {
        tags: ['webhooks'],
        summary: 'Delivery attempts of the last 30 days, newest first (at most 100)',
        security: KEY_REQUIRED,
        params: IdParams,
        response: {
          200: envelopeOf(z.object({ deliveries: z.array(WebhookAttemptSchema), total: z.number().int() })),
        },
      },
    },
    async (request) => {
      const subscription = await store.get(requireApiKey(request).id, request.params.id);
      if (!subscription) throw notFound(request.params.id);
      const deliveries = await delivery.log.list(subscription.id, Date.now());
      return ok({ deliveries, total: deliveries.length });
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: { endpoint: 'POST /webhooks/:id/test' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send a signed webhook.test event now and return how the receiver answered (not retried)',
        security: KEY_REQUIRED,
        params: IdParams,
        response: { 200: envelopeOf(WebhookTestResultSchema) },
      },
    },
    async (request) => {
      const key = requireApiKey(request);
      const subscription = await store.get(key.id, request.params.id);
      const target = subscription && (await store.target(subscription.id));
      if (!target) throw notFound(request.params.id);
      const eventId = `evt_test_${bs58.encode(randomBytes(12))}`;
      const body = JSON.stringify({
        event: 'webhook.test',
        auctionId: '',
        domain: '',
        data: { subscriptionId: target.id, message: 'test delivery from sns-auction' },
        timestamp: Date.now(),
        id: eventId,
      });
      const test = { eventId, event: 'webhook.test', body, attempt: 1, countsTowardHealth: false };
      const result = await deliverOnce(target, test, delivery);
      const delivered = result.outcome === 'delivered';
      return ok({
        success: delivered,
        eventId,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: delivered ? null : result.error,
      });
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { endpoint: 'POST /webhooks/:id/rotate-secret' },
      schema: {
        tags: ['webhooks'],
        summary: 'New signing secret; the old one keeps signing (a second v1 signature) for 24 h',
        security: KEY_REQUIRED,
        params: IdParams,
        response: { 200: envelopeOf(WebhookRotatedSchema) },
      },
    },
    async (request) => {
      const rotated = await delivery.state.rotateSecret(
        requireApiKey(request).id,
        request.params.id,
        Date.now(),
        DEFAULT_DELIVERY_SETTINGS.secretOverlapMs,
      );
      if (!rotated) throw notFound(request.params.id);
      return ok({ id: request.params.id, ...rotated });
    },
  );
};
