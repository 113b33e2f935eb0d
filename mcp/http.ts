/**
 * Streamable HTTP transport, stateless: a fresh server and transport per POST, JSON responses.
 * Binds to loopback by default and checks Host and Origin against allowlists (DNS rebinding).
 * It never signs: the context it serves has no signer.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpContext } from './context.js';
import { type BuildOptions, buildMcpServer } from './server.js';

export interface HttpOptions extends BuildOptions {
  readonly host: string;
  readonly port: number;
  /** Extra Host header values (host:port) beyond the bound address. */
  readonly allowedHosts?: readonly string[];
  /** Origins allowed to call from a browser; requests without Origin (non-browser) pass. */
  readonly allowedOrigins?: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
}

export interface RunningHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;

export async function startHttpTransport(ctx: McpContext, options: HttpOptions): Promise<RunningHttpServer> {
  const http: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      ctx.logger.error({ err: e }, 'MCP HTTP request failed');
      if (!res.headersSent) reply(res, 500, -32603, 'internal error');
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port, options.host, resolve));
  const { port } = http.address() as AddressInfo;
  const hostNames =
    options.host === '127.0.0.1' || options.host === 'localhost'
      ? ['127.0.0.1', 'localhost']
      : [options.host];
  const allowedHosts = new Set([...hostNames.map((h) => `${h}:${port}`), ...(options.allowedHosts ?? [])]);
  const allowedOrigins = new Set([
    ...hostNames.map((h) => `http://${h}:${port}`),
    ...(options.allowedOrigins ?? []),
  ]);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/mcp') return reply(res, 404, -32601, 'not found: the endpoint is /mcp');
    if (!allowedHosts.has(req.headers.host ?? ''))
      return reply(res, 403, -32000, 'forbidden: Host not allowed');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin))
      return reply(res, 403, -32000, 'forbidden: Origin not allowed');
    if (options.bearerToken && !bearerMatches(req.headers.authorization, options.bearerToken)) {
      res.setHeader('www-authenticate', 'Bearer');
      return reply(res, 401, -32001, 'unauthorized: send Authorization: Bearer <MCP_HTTP_TOKEN>');
    }
    if (req.method !== 'POST')
      return reply(res, 405, -32000, 'method not allowed: stateless server, POST only');
    const body = await readJson(req);
    if (body === undefined) return reply(res, 400, -32700, 'parse error: body must be JSON under 1 MB');

    const server = buildMcpServer(ctx, options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  return {
    url: `http://${options.host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
