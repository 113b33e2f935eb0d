import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { positional } from '../rpc/params.js';
import { RPC_ERRORS, RpcError } from '../rpc/rpc-error.js';
import type { PubsubClient, SubscriptionRegistry } from './subscription-registry.js';

const UNSUBSCRIBE = /^(account|program|logs|signature|slot|root)Unsubscribe$/;

export interface PubsubServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The pubsub websocket: JSON-RPC subscribe/unsubscribe calls; notifications come from the registry. */
export async function startPubsubServer(
  registry: SubscriptionRegistry,
  host: string,
  port: number,
  logger: Logger,
): Promise<PubsubServer> {
  const wss = new WebSocketServer({ host, port, maxPayload: 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    wss.once('error', reject);
    wss.once('listening', () => {
      wss.off('error', reject);
      resolve();
    });
  });
  wss.on('error', (err) => logger.error({ err }, 'pubsub server error'));
  wss.on('connection', (socket) => {
    const client: PubsubClient = {
      send: (message) => {
        if (socket.readyState === socket.OPEN) socket.send(message);
      },
    };
    socket.on('message', (data) => handleMessage(registry, client, data.toString()));
    socket.on('close', () => registry.removeClient(client));
    socket.on('error', (err) => logger.debug({ err }, 'pubsub socket error'));
  });
  return {
    port: (wss.address() as AddressInfo).port,
    close: () => closeServer(wss),
  };
}

function handleMessage(registry: SubscriptionRegistry, client: PubsubClient, text: string): void {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    client.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: RPC_ERRORS.parse().toJSON() }));
    return;
  }
  for (const call of Array.isArray(message) ? message : [message]) handleCall(registry, client, call);
}

function handleCall(registry: SubscriptionRegistry, client: PubsubClient, call: unknown): void {
  if (typeof call !== 'object' || call === null) {
    client.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: RPC_ERRORS.invalidRequest().toJSON() }));
    return;
  }
  const { method, params, id } = call as Record<string, unknown>;
  // Notifications (no id), such as web3.js's keep-alive `ping`, need no answer.
  if (id === undefined) return;
  const reply = (body: { result: unknown } | { error: unknown }) =>
    client.send(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
  try {
    if (typeof method !== 'string' || (typeof id !== 'number' && typeof id !== 'string' && id !== null)) {
      throw RPC_ERRORS.invalidRequest();
    }
    const unsubscribe = UNSUBSCRIBE.exec(method);
    if (unsubscribe) {
      const kind = unsubscribe[1] as 'account' | 'program' | 'logs' | 'signature' | 'slot' | 'root';
      reply({ result: registry.unsubscribe(client, kind, positional(params)[0]) });
      return;
    }
    const { id: subscription, afterReply } = registry.subscribe(client, method, positional(params));
    reply({ result: subscription });
    afterReply?.();
  } catch (e) {
    reply({ error: (e instanceof RpcError ? e : RPC_ERRORS.internal()).toJSON() });
  }
}

/** Closes every connection with 1000 (normal closure), which web3.js's client does not retry. */
function closeServer(wss: WebSocketServer): Promise<void> {
  for (const socket of wss.clients as Set<WebSocket>) socket.close(1000, 'localnet shutting down');
  return new Promise((resolve) => {
    wss.close(() => resolve());
    // A client that never answers the close handshake must not hold shutdown.
    setTimeout(() => {
      for (const socket of wss.clients as Set<WebSocket>) socket.terminate();
    }, 1000).unref();
  });
}
