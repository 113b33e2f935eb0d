import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { type ErrorCode, isAppError } from '../core/errors.js';
import type { ErrorEnvelope } from './envelope.js';

/** Default HTTP status per code; exhaustive, so a new code without a status does not compile. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  INVALID_REQUEST: 400,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BID_TOO_LOW: 400,
  AUCTION_ENDED: 400,
};

function errorBody(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorEnvelope {
  return { success: false, error: message, code, timestamp: Date.now(), ...(details ? { details } : {}) };
}

/** `/domainNames/1/name` → `domainNames[1].name`, the way our own messages name fields. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

const LOCATION_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/**
 * Turns every error into the spec's envelope with a known code. Validation errors name the field
 * and the rule; anything unexpected is logged with its detail and answered with a generic 500.
 */
export const errorHandler = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isAppError(error)) {
        const status = error.httpStatus ?? STATUS_BY_CODE[error.code];
        if (status >= 500) request.log.error({ err: error }, 'request failed');
        return reply.status(status).send(errorBody(error.code, error.message, error.details));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const where = LOCATION_NAMES[error.validationContext ?? 'body'] ?? 'request';
        const issues = error.validation.map((v) => ({
          field: fieldPath(v.instancePath) || where,
          message: v.message ?? 'invalid',
        }));
        const message = issues
          .map((i) => `${where === i.field ? where : `${where}.${i.field}`}: ${i.message}`)
          .join('; ');
        return reply
          .status(400)
          .send(errorBody('INVALID_REQUEST', `invalid request: ${message}`, { issues }));
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
        return reply.status(500).send(errorBody('INTERNAL_ERROR', 'internal error'));
      }
      const status = error.statusCode ?? 500;
      if (status < 500) {
        // fastify's own 4xx: malformed JSON, wrong content type, body too large, ...
        const code: ErrorCode =
          status === 401 || status === 403
            ? 'UNAUTHORIZED'
            : status === 404
              ? 'NOT_FOUND'
              : 'INVALID_REQUEST';
        return reply.status(status).send(errorBody(code, error.message));
      }
      request.log.error({ err: error }, 'unexpected error');
      return reply.status(500).send(errorBody('INTERNAL_ERROR', 'internal error'));
    });

    app.setNotFoundHandler((request, reply) =>
      reply
        .status(404)
        .send(errorBody('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`)),
    );
  },
  { name: 'error-handler' },
);
