/**
 * The real entry point over stdio, driven by the MCP Inspector CLI as a host would: a spawned
 * `mcp/main.ts`, tools listed and one called. Also: a non-agent key is refused at start.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuctionApiEnv, startAuctionApi, type Wallet, walletWithKey } from '../helpers/auction-api.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('stdio server under the MCP Inspector CLI', () => {
  let env: AuctionApiEnv;
  let agent: Wallet;
  let home: string;

  beforeAll(async () => {
    env = await startAuctionApi('mcp-stdio');
    agent = await walletWithKey(env);
    home = await mkdtemp(join(tmpdir(), 'mcp-inspector-home-'));
  });
  afterAll(async () => {
    await env?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** Target first (Inspector's rule), then its options; env goes to the server with -e. */
  async function inspector(key: string, ...args: string[]): Promise<RunResult> {
    return inspectorWith([], key, ...args);
  }

  async function inspectorWith(moreEnv: string[], key: string, ...args: string[]): Promise<RunResult> {
    const serverEnv = [
      `SNS_AUCTION_API_URL=${env.baseUrl}`,
      `SNS_AUCTION_API_KEY=${key}`,
      'LOG_LEVEL=warn',
      ...moreEnv,
    ].flatMap((kv) => ['-e', kv]);
    try {
      const { stdout, stderr } = await run(
        'npx',
        ['--no-install', 'mcp-inspector', '--cli', TSX, join(ROOT, 'mcp/main.ts'), ...serverEnv, ...args],
        { cwd: ROOT, env: { ...process.env, HOME: home }, timeout: 60_000 },
      );
      return { code: 0, stdout, stderr };
    } catch (e) {
      const failed = e as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('lists the tools (portable schemas under --strict) and calls one', async () => {
    const listed = await inspector(agent.key, '--method', 'tools/list', '--format', 'json', '--strict');
    expect(listed.code, listed.stderr).toBe(0);
    // Nullable fields are `type: [x, "null"]` in the SDK's draft-07 output: warnings, never errors.
    expect(listed.stderr).toMatch(/\b0 errors\b/);
    const { tools } = (JSON.parse(listed.stdout) as { result: { tools: { name: string }[] } }).result;
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['auctions_list', 'auction_get', 'bid_place', 'policy_get']),
    );
    // No WALLET_KEYPAIR: the server cannot sign, so tx_submit is not offered.
    expect(names).not.toContain('tx_submit');

    const called = await inspector(
      agent.key,
      '--method',
      'tools/call',
      '--tool-name',
      'policy_get',
      '--format',
      'json',
    );
    expect(called.code, called.stderr).toBe(0);
    const { result } = JSON.parse(called.stdout) as {
      result: { structuredContent: { wallet: string; canSign: boolean } };
    };
    expect(result.structuredContent).toMatchObject({ wallet: agent.address, canSign: false });
    expect(called.stdout + called.stderr).not.toContain(agent.key);
  }, 120_000);

  it('exits with code 5 when a tool call is an isError result', async () => {
    const called = await inspector(
      agent.key,
      '--method',
      'tools/call',
      '--tool-name',
      'auction_get',
      '--tool-arg',
      `auctionId=${agent.address}`,
      '--format',
      'json',
    );
    expect(called.code, called.stderr).toBe(5);
    expect(called.stdout + called.stderr).toContain('Check the id');
  }, 120_000);

  it("offers tx_submit with the key wallet's WALLET_KEYPAIR and refuses another wallet's", async () => {
    const own = join(home, 'own.json');
    await writeFile(own, JSON.stringify(Array.from(agent.keypair.secretKey)), { mode: 0o600 });
    const wallet = [`WALLET_KEYPAIR=${own}`, `SOLANA_RPC_URL=${env.t.localnet.rpcUrl}`];
    const listed = await inspectorWith(wallet, agent.key, '--method', 'tools/list', '--format', 'json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('"tx_submit"');

    const other = join(home, 'other.json');
    await writeFile(other, JSON.stringify(Array.from(Keypair.generate().secretKey)), { mode: 0o600 });
    const started = await run(process.execPath, ['--import', 'tsx', 'mcp/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        SNS_AUCTION_API_URL: env.baseUrl,
        SNS_AUCTION_API_KEY: agent.key,
        WALLET_KEYPAIR: other,
        SOLANA_RPC_URL: env.t.localnet.rpcUrl,
      },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(started.code).toBe(1);
    expect(started.stderr).toMatch(/WALLET_KEYPAIR holds wallet \w+ but the API key belongs to wallet/);
  }, 120_000);

  it('refuses to start with a developer key, saying why', async () => {
    const developer = await walletWithKey(env, { type: 'developer' });
    const started = await run(process.execPath, ['--import', 'tsx', 'mcp/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, SNS_AUCTION_API_URL: env.baseUrl, SNS_AUCTION_API_KEY: developer.key },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('is a "developer" key');
    expect(started.stderr).toContain('needs an "agent" key');
    expect(started.stderr).not.toContain(developer.key);
  }, 60_000);
});
