import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../composition.js';
import { AppError } from '../../core/errors.js';
import { API_KEY_TYPES, type ApiKeyRecord } from '../../redis/api-key-store.js';
import { envelopeOf, ok } from '../envelope.js';
import { requireApiKey } from '../request-guard.js';
import { AddressSchema, KEY_OPTIONAL, KEY_REQUIRED } from '../schemas/common.js';
import { ApiKeyMeSchema, ApiKeySchema, CreatedApiKeySchema } from '../schemas/keys.js';

const CreateKeyBody = z.object({
  name: z.string().trim().min(1).max(64).describe('label chosen by the creator, 1 to 64 characters'),
  type: z.enum(API_KEY_TYPES),
  walletAddress: AddressSchema.describe('wallet tied to the key: the seller for create, the bidder for bids'),
  expirationDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .describe('days until the key expires, 1 to 3650'),
});

const publicView = (r: ApiKeyRecord) => ({
  id: r.id,
  prefix: r.prefix,
  name: r.name,
  type: r.type,
  walletAddress: r.walletAddress,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
  revokedAt: r.revokedAt,
});

export const keyRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const environment = deps.config.cluster === 'mainnet-beta' ? 'live' : 'test';

  app.post(
    '/keys/create',
    {
      config: { endpoint: 'POST /keys/create' },
      schema: {
        tags: ['keys'],
        summary: 'Create an API key (without a key: bootstrap, 5 per hour per IP)',
        security: KEY_OPTIONAL,
        body: CreateKeyBody,
        response: { 200: envelopeOf(CreatedApiKeySchema) },
      },
    },
    async (request) => {
      const { key, record } = await deps.apiKeys.create(
        { ...request.body, accountId: request.apiKey?.accountId },
        environment,
        Date.now(),
      );
      const { revokedAt: _revokedAt, ...view } = publicView(record);
      return ok({ key, ...view });
    },
  );

  app.get(
    '/keys',
    {
      config: { endpoint: 'GET /keys' },
      schema: {
        tags: ['keys'],
        summary: "List the keys of the caller's account (no secrets)",
        security: KEY_REQUIRED,
        response: { 200: envelopeOf(z.object({ keys: z.array(ApiKeySchema), total: z.number().int() })) },
      },
    },
    async (request) => {
      const keys = (await deps.apiKeys.listAccount(requireApiKey(request).accountId)).map(publicView);
      return ok({ keys, total: keys.length });
    },
  );

  app.get(
    '/keys/me',
    {
      config: { endpoint: 'GET /keys/me' },
      schema: {
        tags: ['keys'],
        summary: 'The calling key',
        security: KEY_REQUIRED,
        response: { 200: envelopeOf(ApiKeyMeSchema) },
      },
    },
    async (request) => {
      const key = requireApiKey(request);
      return ok({
        ...publicView(key),
        accountId: key.accountId,
        analyticsRateLimit: key.analyticsRateLimit ?? deps.config.analyticsRateLimit,
      });
    },
  );

  app.post(
    '/keys/:id/revoke',
    {
      config: { endpoint: 'POST /keys/:id/revoke' },
      schema: {
        tags: ['keys'],
        summary: "Revoke a key of the caller's account; it fails from the next request on",
        security: KEY_REQUIRED,
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: envelopeOf(ApiKeySchema) },
      },
    },
    async (request) => {
      const revoked = await deps.apiKeys.revoke(
        requireApiKey(request).accountId,
        request.params.id,
        Date.now(),
      );
      if (!revoked) throw new AppError('NOT_FOUND', `no key ${request.params.id} in this account`);
      return ok(publicView(revoked));
    },
  );
};
