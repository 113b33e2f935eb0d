/** API key response schemas: no secret but the one shown at creation. */
import { z } from 'zod';
import { API_KEY_TYPES } from '../../redis/api-key-store.js';

export const ApiKeySchema = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  type: z.enum(API_KEY_TYPES),
  walletAddress: z.string(),
  createdAt: z.number().int(),
  expiresAt: z.number().int().nullable(),
  revokedAt: z.number().int().nullable(),
});
export const CreatedApiKeySchema = ApiKeySchema.omit({ revokedAt: true }).extend({
  key: z.string().describe('the full key; shown only in this response'),
});
export const ApiKeyMeSchema = ApiKeySchema.extend({
  accountId: z.string(),
  analyticsRateLimit: z.number().int(),
});
