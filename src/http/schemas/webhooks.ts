/** Webhook subscription response schemas (SPEC.md plus API.md's delivery log, test and rotation). */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/event-types.js';

export const WebhookSubscriptionSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  active: z.boolean(),
  createdAt: z.number().int(),
  lastDelivery: z.number().int().nullable().describe('Unix ms of the last successful delivery, null if none'),
});
export const WebhookCreatedSchema = z.object({
  subscriptionId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  createdAt: z.number().int(),
  secret: z.string().describe('signing secret (whsec_…); shown only in this response'),
});

export const WebhookAttemptSchema = z.object({
  eventId: z.string(),
  event: z.string(),
  attempt: z.number().int().describe('1 for the first attempt of an event'),
  at: z.number().int().describe('Unix ms when the attempt finished'),
  success: z.boolean(),
  statusCode: z.number().int().nullable().describe("the receiver's status; null when no response came"),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  response: z.string().nullable().describe("the start of the receiver's response body"),
});
export const WebhookTestResultSchema = z.object({
  success: z.boolean(),
  eventId: z.string(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export const WebhookRotatedSchema = z.object({
  id: z.string(),
  secret: z.string().describe('the new signing secret (whsec_…); shown only in this response'),
  previousSecretExpiresAt: z.number().int().describe('Unix ms until which the old secret also signs'),
});
