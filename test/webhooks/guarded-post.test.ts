/**
 * The last line of the SSRF guard: in production configuration a delivery is refused when the
 * socket turns out to be connected to a non-public address, even though every earlier check
 * (registration, the resolver at connect time) saw a public one. The network path is replaced
 * through `connect` so that a name resolving to a public address lands on a real receiver on
 * loopback, as DNS rebinding between lookup and connect (or a NAT) would make it.
 */
import type { ClientRequestArgs } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedPostOptions, guardedPost } from '../../src/webhooks/guarded-post.js';
import { checkWebhookUrl } from '../../src/webhooks/url-guard.js';
import { type Receiver, startReceiver } from './receiver.js';

const PUBLIC = '93.184.215.14';
let receiver: Receiver;
let port: number;

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  port = Number(new URL(receiver.url).port);
});

afterAll(async () => {
  await receiver?.close();
});

/**
 * A network path that resolves the request's host through the guarded lookup (as the real
 * connection does: the resolver's answer is checked there), then connects to `landOn` instead.
 */
function rebindingPath(landOn: string, lookups: string[]): (options: ClientRequestArgs) => Socket {
  return (options) => {
    const socket = netConnect({ host: landOn, port });
    const { host, lookup } = options;
    if (host && lookup)
      lookup(host, { all: true }, (error, addresses) => {
        if (error) socket.destroy(error);
        else lookups.push(JSON.stringify(addresses));
      });
    return socket;
  };
}

const production = (connect: GuardedPostOptions['connect']): GuardedPostOptions => ({
  allowPrivateTargets: false,
  resolve: async () => [PUBLIC],
  timeoutMs: 5_000,
  connect,
});

const post = (path: string, options: GuardedPostOptions) =>
  guardedPost(
    `http://hooks.example.com:${port}${path}`,
    { 'content-type': 'application/json' },
    '{}',
    options,
  );

describe('guarded webhook POST: the connected socket', () => {
  it('passes the registration check: the name resolves to a public address', async () => {
    const check = await checkWebhookUrl(`https://hooks.example.com:${port}/x`, {
      allowPrivateTargets: false,
      resolve: async () => [PUBLIC],
    });
    expect(check.ok).toBe(true);
  });

  it('reaches the receiver through the rebinding path when private targets are allowed (control)', async () => {
    const lookups: string[] = [];
    const outcome = await post('/control', {
      ...production(rebindingPath('127.0.0.1', lookups)),
      allowPrivateTargets: true,
    });
    expect(outcome).toMatchObject({ kind: 'response', statusCode: 200 });
    expect(receiver.received.map((r) => r.path)).toContain('/control');
  });

  it.each([
    ['127.0.0.1', '/loopback-v4'],
    ['::ffff:127.0.0.1', '/loopback-mapped'],
  ])('refuses a socket connected to %s although DNS said public, and sends nothing', async (landOn, path) => {
    const lookups: string[] = [];
    const outcome = await post(path, production(rebindingPath(landOn, lookups)));
    expect(lookups).toEqual([JSON.stringify([{ address: PUBLIC, family: 4 }])]);
    expect(outcome.kind).toBe('error');
    expect(outcome.kind === 'error' && outcome.error).toMatch(
      /^refused: connected to .*127\.0\.0\.1, not a public address$/,
    );
    // Nothing arrived either: a later control request is received, the refused one is not.
    await post('/after', { ...production(rebindingPath('127.0.0.1', [])), allowPrivateTargets: true });
    await receiver.waitFor((r) => r.some((q) => q.path === '/after'));
    expect(receiver.received.map((r) => r.path)).not.toContain(path);
  });
});
