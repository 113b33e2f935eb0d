import { z } from 'zod';
import { isAddress } from '../../core/address.js';

export const AddressSchema = z
  .string()
  .refine(isAddress, { message: 'must be a base58 Solana address (32 bytes)' })
  .describe('base58 wallet or account address');

/** The `X-API-Key` security requirement, for the OpenAPI document. */
type SecurityRequirement = Record<string, string[]>[];
export const KEY_REQUIRED: SecurityRequirement = [{ apiKey: [] }];
export const KEY_OPTIONAL: SecurityRequirement = [{}, { apiKey: [] }];
