import { z } from 'zod';

/**
 * The service's configuration: the only place that reads the environment. `dev` fills in embedded
 * defaults (spawned Redis, in-process localnet, generated keeper); `production` requires the
 * external pieces and refuses to start without them, naming what is missing.
 */
export type RunMode = 'dev' | 'production' | 'test';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000).describe('HTTP port of the API'),
  HOST: z.string().min(1).default('127.0.0.1').describe('interface the API listens on'),
  REDIS_URL: z.url().optional().describe('Redis; dev spawns redis-server on a free port when unset'),
  REDIS_PREFIX: z
    .string()
    .min(1)
    .max(64)
    .default('sns:')
    .describe('prefix of every Redis key and BullMQ queue'),
  SOLANA_RPC_URL: z
    .url()
    .optional()
    .describe('JSON-RPC endpoint; dev starts the embedded localnet when unset'),
  SOLANA_WS_URL: z.url().optional().describe('pubsub websocket; defaults to the RPC port + 1'),
  SOLANA_CLUSTER: z
    .enum(['localnet', 'devnet', 'mainnet-beta'])
    .optional()
    .describe(
      'decides the API key prefix (sk_live_ only on mainnet-beta); derived from the RPC URL when unset',
    ),
  LOCALNET_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(8899)
    .describe('port of the embedded localnet in dev'),
  KEEPER_KEYPAIR: z
    .string()
    .min(1)
    .optional()
    .describe('path of the keeper keypair (solana-keygen JSON) that signs settlements'),
  RESERVE_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe('secret from which hidden-reserve salts are derived (HMAC); at least 32 characters'),
  DATA_DIR: z
    .string()
    .min(1)
    .default('.data')
    .describe('where dev keeps its chain snapshot, keeper key and secrets'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level'),
  TRUST_PROXY: booleanFlag
    .default(false)
    .describe('take the client IP from X-Forwarded-For (behind a load balancer)'),
  ANALYTICS_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(200)
    .describe('default per-key analytics limit per minute'),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag
    .optional()
    .describe('allow http:// and private/loopback webhook URLs; default true in dev, false in production'),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  readonly mode: RunMode;
  readonly port: number;
  readonly host: string;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  readonly solanaRpcUrl: string | undefined;
  readonly solanaWsUrl: string | undefined;
  readonly cluster: 'localnet' | 'devnet' | 'mainnet-beta';
  readonly localnetPort: number;
  readonly keeperKeypairPath: string | undefined;
  readonly reserveSecret: string | undefined;
  readonly dataDir: string;
  readonly logLevel: Env['LOG_LEVEL'];
  readonly trustProxy: boolean;
  readonly analyticsRateLimit: number;
  readonly webhookAllowPrivateTargets: boolean;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const REQUIRED_IN_PRODUCTION = ['REDIS_URL', 'SOLANA_RPC_URL', 'KEEPER_KEYPAIR', 'RESERVE_SECRET'] as const;

export function parseConfig(env: Record<string, string | undefined>, mode: RunMode): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (mode === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => !e[name]);
    if (missing.length > 0) {
      throw new ConfigError(
        `production mode needs ${missing.join(', ')} (see docs/configuration.md); use \`npm run dev\` for embedded defaults`,
      );
    }
  }
  return Object.freeze({
    mode,
    port: e.PORT,
    host: e.HOST,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    solanaRpcUrl: e.SOLANA_RPC_URL,
    solanaWsUrl: e.SOLANA_WS_URL,
    cluster: e.SOLANA_CLUSTER ?? clusterOf(e.SOLANA_RPC_URL),
    localnetPort: e.LOCALNET_PORT,
    keeperKeypairPath: e.KEEPER_KEYPAIR,
    reserveSecret: e.RESERVE_SECRET,
    dataDir: e.DATA_DIR,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    analyticsRateLimit: e.ANALYTICS_RATE_LIMIT,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? mode !== 'production',
  });
}

function clusterOf(rpcUrl: string | undefined): Config['cluster'] {
  if (!rpcUrl) return 'localnet';
  if (rpcUrl.includes('mainnet')) return 'mainnet-beta';
  if (rpcUrl.includes('devnet')) return 'devnet';
  return 'localnet';
}

/** For docs/configuration.md: every variable with its description and default. */
export function describeEnvironment(): { name: string; description: string; default: unknown }[] {
  return Object.entries(EnvSchema.shape).map(([name, schema]) => ({
    name,
    description: schema.description ?? '',
    default: (schema as z.ZodType).safeParse(undefined).data,
  }));
}
