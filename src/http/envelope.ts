import { z } from 'zod';
import { ERROR_CODES } from '../core/errors.js';

/** Success envelope of every response: `{ success: true, data, timestamp }` (Unix ms). */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, timestamp: z.number().int() });
}

export const ErrorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.enum(ERROR_CODES),
  timestamp: z.number().int(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function ok<T>(data: T) {
  return { success: true as const, data, timestamp: Date.now() };
}
