/**
 * Entry: `tsx mcp/main.ts` (stdio, default) or `tsx mcp/main.ts --http [--port N]`.
 * stdout carries the protocol on stdio, so logs go to stderr only, and never include keys.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { createAgentsControl } from '../agents/runner/control.js';
import { solToLamports } from '../src/core/money.js';
import { type McpConfig, parseMcpConfig } from './config.js';
import { startHttpTransport } from './http.js';
import { buildMcpServer, type ToolRegistrar } from './server.js';
import { createMcpContext, StartupError } from './startup.js';
import { strategyTools } from './tools/strategies.js';

/** Tool groups beyond the built-in ones: the strategy runner's controls when its Redis is configured. */
async function extraToolsOf(config: McpConfig): Promise<ToolRegistrar[]> {
  if (!config.agents) return [];
  const control = await createAgentsControl(config.agents);
  return [
    strategyTools({
      control,
      allowLive: config.agents.allowLive,
      maxLiveSpendLamports: solToLamports(config.policy.dailySpendCapSol),
    }),
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      http: { type: 'boolean', default: false },
      port: { type: 'string' },
      host: { type: 'string' },
    },
    strict: true,
  });
  const config = parseMcpConfig(process.env);
  const logger = pino(
    { level: config.logLevel, redact: ['apiKey', 'key', 'secret', 'secretKey', '*.apiKey', '*.secretKey'] },
    pino.destination(2),
  );
  const ctx = await createMcpContext(config, { logger, allowSigning: !values.http });
  const extraTools = await extraToolsOf(config);
  logger.info(
    { wallet: ctx.me.walletAddress, signing: ctx.signer !== null, dryRun: config.policy.dryRun },
    'sns-auction MCP server ready',
  );

  if (values.http) {
    const port = values.port === undefined ? config.http.port : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new StartupError(`--port must be 0..65535, got ${values.port}`);
    const http = await startHttpTransport(ctx, {
      host: values.host ?? config.http.host,
      port,
      allowedHosts: config.http.allowedHosts,
      allowedOrigins: config.http.allowedOrigins,
      extraTools,
      ...(config.http.bearerToken ? { bearerToken: config.http.bearerToken } : {}),
    });
    logger.info({ url: http.url }, 'streamable HTTP transport listening');
    const stop = () => void http.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const server = buildMcpServer(ctx, { extraTools });
  await server.connect(new StdioServerTransport());
  // The host closing our stdin is the end of the session.
  process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
}

main().catch((e: unknown) => {
  // Startup problems are the operator's to fix: one clear line on stderr, no stack for known ones.
  const message =
    e instanceof StartupError || (e instanceof Error && e.message.startsWith('invalid MCP'))
      ? e.message
      : e instanceof Error
        ? (e.stack ?? e.message)
        : String(e);
  console.error(`sns-auction MCP server: ${message}`);
  process.exit(1);
});
