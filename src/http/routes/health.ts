import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import packageJson from '../../../package.json' with { type: 'json' };
import type { Deps } from '../../composition.js';

const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeMs: z.number().int(),
  redis: z.object({ ok: z.boolean(), latencyMs: z.number().nullable() }),
  chain: z.object({
    ok: z.boolean(),
    cluster: z.string(),
    slot: z.number().nullable(),
    latencyMs: z.number().nullable(),
  }),
  indexer: z.object({ lagSlots: z.number().nullable() }),
});
const HealthEnvelope = z.object({ success: z.boolean(), data: HealthSchema, timestamp: z.number().int() });

async function timed<T>(
  probe: () => Promise<T>,
  timeoutMs: number,
): Promise<{ value: T; latencyMs: number } | null> {
  const started = performance.now();
  try {
    const value = await Promise.race([
      probe(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
    ]);
    return { value, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch {
    return null;
  }
}

/** Never rate limited. 503 with the same shape when Redis or the chain is unreachable. */
export const healthRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      config: { endpoint: 'GET /health' },
      schema: { tags: ['health'], response: { 200: HealthEnvelope, 503: HealthEnvelope } },
    },
    async (_request, reply) => {
      const [redis, chain, indexedSlot] = await Promise.all([
        timed(() => deps.redis.ping(), 1_000),
        timed(() => deps.connection.getSlot('confirmed'), 2_000),
        timed(() => deps.redis.hget(deps.keys.indexerState(), 'slot'), 1_000),
      ]);
      const healthy = redis !== null && chain !== null;
      const slot = chain?.value ?? null;
      const cursor = indexedSlot?.value ? Number(indexedSlot.value) : null;
      const data = {
        status: healthy ? ('ok' as const) : ('degraded' as const),
        version: packageJson.version,
        uptimeMs: Date.now() - deps.startedAt,
        redis: { ok: redis !== null, latencyMs: redis?.latencyMs ?? null },
        chain: {
          ok: chain !== null,
          cluster: deps.config.cluster,
          slot,
          latencyMs: chain?.latencyMs ?? null,
        },
        indexer: { lagSlots: slot !== null && cursor !== null ? Math.max(0, slot - cursor) : null },
      };
      return reply.status(healthy ? 200 : 503).send({ success: healthy, data, timestamp: Date.now() });
    },
  );
};
