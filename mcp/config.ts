/**
 * MCP server configuration, from the environment only (Claude Desktop passes `env`). Every
 * variable is validated here so a mistake fails at start with the variable's name, never later.
 */
import { z } from 'zod';

const solAmount = (name: string, fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => /^\d+(\.\d{1,9})?$/.test(v), `${name} must be a SOL amount like 2.5 (at most 9 decimals)`);

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

export const McpEnvSchema = z.object({
  SNS_AUCTION_API_URL: z
    .url({ error: 'SNS_AUCTION_API_URL must be the API base URL, e.g. http://127.0.0.1:3000/api/v1' })
    .default('http://127.0.0.1:3000/api/v1'),
  SNS_AUCTION_API_KEY: z
    .string({ error: 'SNS_AUCTION_API_KEY is required: an agent key (POST /keys/create with type "agent")' })
    .min(8, 'SNS_AUCTION_API_KEY looks truncated'),
  WALLET_KEYPAIR: z
    .string()
    .min(1)
    .optional()
    .describe('solana-keygen JSON file of the key wallet; enables tx_submit'),
  SOLANA_RPC_URL: z
    .url({ error: 'SOLANA_RPC_URL must be a JSON-RPC URL, e.g. http://127.0.0.1:8899' })
    .optional(),
  MAX_BID_SOL: solAmount('MAX_BID_SOL', '5'),
  DAILY_SPEND_CAP_SOL: solAmount('DAILY_SPEND_CAP_SOL', '20'),
  CONFIRM_ABOVE_SOL: solAmount('CONFIRM_ABOVE_SOL', '2'),
  DRY_RUN: flag,
  SPEND_LEDGER_FILE: z.string().min(1).optional(),
  /** Comma-separated extra program ids the wallet may sign for (e.g. a devnet deployment's). */
  EXTRA_ALLOWED_PROGRAMS: z.string().default(''),
  MCP_HTTP_HOST: z.string().default('127.0.0.1'),
  MCP_HTTP_PORT: z.coerce.number<string>().int().min(0).max(65_535).default(3333),
  /** Extra Host header values accepted by the HTTP transport (comma-separated, e.g. a reverse proxy's). */
  MCP_ALLOWED_HOSTS: z.string().default(''),
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  /** Optional shared secret for the HTTP transport (Authorization: Bearer …). */
  MCP_HTTP_TOKEN: z.string().min(16, 'MCP_HTTP_TOKEN must be at least 16 characters').optional(),
  /** The strategy runner's Redis: set it to offer strategy_start / strategies_list / strategy_stop. */
  AGENTS_REDIS_URL: z.string().min(1).optional(),
  AGENTS_REDIS_PREFIX: z.string().default('sns:'),
  /** Let agents start `live` strategies (they spend the runner wallet's SOL). */
  AGENTS_ALLOW_LIVE: flag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type McpEnv = z.output<typeof McpEnvSchema>;

export interface McpConfig {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly walletKeypairPath: string | null;
  readonly rpcUrl: string | null;
  readonly policy: {
    readonly maxBidSol: string;
    readonly dailySpendCapSol: string;
    readonly confirmAboveSol: string;
    readonly dryRun: boolean;
    readonly extraAllowedPrograms: readonly string[];
  };
  /** Null: `~/.sns-auction/mcp-spend-<wallet>.json`, one file per wallet. */
  readonly spendLedgerFile: string | null;
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly allowedHosts: readonly string[];
    readonly allowedOrigins: readonly string[];
    readonly bearerToken: string | null;
  };
  /** Null when AGENTS_REDIS_URL is not set (no strategy tools). */
  readonly agents: {
    readonly redisUrl: string;
    readonly redisPrefix: string;
    readonly allowLive: boolean;
  } | null;
  readonly logLevel: McpEnv['LOG_LEVEL'];
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Parses the environment; throws one Error listing every bad variable by name. */
export function parseMcpConfig(env: Record<string, string | undefined>): McpConfig {
  const parsed = McpEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `- ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new Error(`invalid MCP server configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    apiUrl: e.SNS_AUCTION_API_URL,
    apiKey: e.SNS_AUCTION_API_KEY,
    walletKeypairPath: e.WALLET_KEYPAIR ?? null,
    rpcUrl: e.SOLANA_RPC_URL ?? null,
    policy: {
      maxBidSol: e.MAX_BID_SOL,
      dailySpendCapSol: e.DAILY_SPEND_CAP_SOL,
      confirmAboveSol: e.CONFIRM_ABOVE_SOL,
      dryRun: e.DRY_RUN,
      extraAllowedPrograms: list(e.EXTRA_ALLOWED_PROGRAMS),
    },
    spendLedgerFile: e.SPEND_LEDGER_FILE ?? null,
    http: {
      host: e.MCP_HTTP_HOST,
      port: e.MCP_HTTP_PORT,
      allowedHosts: list(e.MCP_ALLOWED_HOSTS),
      allowedOrigins: list(e.MCP_ALLOWED_ORIGINS),
      bearerToken: e.MCP_HTTP_TOKEN ?? null,
    },
    agents: e.AGENTS_REDIS_URL
      ? { redisUrl: e.AGENTS_REDIS_URL, redisPrefix: e.AGENTS_REDIS_PREFIX, allowLive: e.AGENTS_ALLOW_LIVE }
      : null,
    logLevel: e.LOG_LEVEL,
  };
}
