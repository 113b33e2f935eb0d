/**
 * The stateless streamable HTTP transport: Host and Origin allowlists (DNS rebinding), then a real
 * SDK client listing and calling tools over HTTP against the real API.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../mcp/config.js';
import { type RunningHttpServer, startHttpTransport } from '../../mcp/http.js';
import { createMcpContext } from '../../mcp/startup.js';
import { type AuctionApiEnv, startAuctionApi, type Wallet, walletWithKey } from '../helpers/auction-api.js';

function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const TOKEN = 'a-shared-secret-of-32-characters';
const AUTH = { authorization: `Bearer ${TOKEN}` };

describe('streamable HTTP transport', () => {
  let env: AuctionApiEnv;
  let agent: Wallet;
  let http: RunningHttpServer;

  beforeAll(async () => {
    env = await startAuctionApi('mcp-http');
    agent = await walletWithKey(env);
    const config = parseMcpConfig({ SNS_AUCTION_API_URL: env.baseUrl, SNS_AUCTION_API_KEY: agent.key });
    const ctx = await createMcpContext(config, { logger: pino({ level: 'silent' }), allowSigning: false });
    http = await startHttpTransport(ctx, {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: ['https://app.example'],
      bearerToken: TOKEN,
    });
  });
  afterAll(async () => {
    await http?.close();
    await env?.close();
  });

  it('rejects a foreign Host or Origin or a missing token, then serves tools/list and a call to an SDK client', async () => {
    const port = new URL(http.url).port;
    const evilHost = await post(http.url, { host: `evil.example:${port}`, ...AUTH });
    expect(evilHost.status).toBe(403);
    expect(evilHost.body).toContain('Host not allowed');
    const evilOrigin = await post(http.url, { origin: 'http://evil.example', ...AUTH });
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.body).toContain('Origin not allowed');
    const noToken = await post(http.url, { origin: 'https://app.example' });
    expect(noToken.status).toBe(401);
    expect((await post(http.url, { authorization: 'Bearer wrong' })).status).toBe(401);
    // An allowed browser origin with the token passes the guards.
    const allowed = await post(http.url, { origin: 'https://app.example', ...AUTH });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toContain('auction_get');

    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: AUTH } }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('auction_get');
      // The HTTP transport never signs.
      expect(names).not.toContain('tx_submit');
      const policy = await client.callTool({ name: 'policy_get', arguments: {} });
      expect(policy.structuredContent).toMatchObject({ wallet: agent.address, canSign: false });
      const list = await client.callTool({ name: 'auctions_list', arguments: { limit: 5 } });
      expect(list.isError ?? false).toBe(false);
      expect(list.structuredContent).toMatchObject({ page: 1, pageSize: 5 });
    } finally {
      await client.close();
    }
  });
});
