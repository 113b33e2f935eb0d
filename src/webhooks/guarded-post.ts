import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type ClientRequestArgs } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { type HostResolver, isPublicAddress } from './url-guard.js';

/**
 * One webhook POST over node:http(s), guarded against SSRF at connection time: names resolve
 * through a lookup that refuses non-public addresses, IP literals are checked before connecting,
 * and the address the socket actually connected to is checked again (DNS rebinding). Redirects
 * are never followed. Connections are kept alive per options object (one pool per delivery
 * configuration): a new socket goes through the guarded lookup and the check on connect, a reused
 * one is checked again when it is assigned (a connected socket's peer cannot change).
 */
export interface GuardedPostOptions {
  /** Dev and tests: loopback and private targets are allowed. */
  readonly allowPrivateTargets: boolean;
  /** Replaces DNS (tests point a name at 127.0.0.1 with it). */
  readonly resolve?: HostResolver | undefined;
  readonly timeoutMs: number;
  /**
   * Tests only: opens the TCP connection instead of `net.createConnection` (it gets the request's
   * options, `lookup` included). It stands for a network path that lands somewhere other than
   * where DNS said — rebinding between lookup and connect, a NAT — so tests can show that the
   * connected-socket check alone refuses it.
   */
  readonly connect?: ((options: ClientRequestArgs) => Socket) | undefined;
}

export type PostOutcome =
  | {
      readonly kind: 'response';
      readonly statusCode: number;
      /** From `Retry-After` (seconds or an HTTP date), when present and valid. */
      readonly retryAfterMs: number | null;
      /** The start of the response body, for the delivery log. */
      readonly responseBody: string;
      readonly durationMs: number;
    }
  | { readonly kind: 'error'; readonly error: string; readonly durationMs: number };

const MAX_LOGGED_BODY = 1_024;
// Idle sockets are dropped before the usual 5 s keep-alive of servers (node's default), so that a
// request rarely meets a socket the receiver is closing.
const IDLE_SOCKET_MS = 4_000;

const pools = new WeakMap<GuardedPostOptions, { http: http.Agent; https: https.Agent }>();

/** The keep-alive agents of one delivery configuration (never shared with another). */
function agentFor(options: GuardedPostOptions, protocol: string): http.Agent {
  let pool = pools.get(options);
  if (!pool) {
    const settings = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    pool = { http: new http.Agent(settings), https: new https.Agent(settings) };
    pools.set(options, pool);
  }
  return protocol === 'https:' ? pool.https : pool.http;
}

export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError';
}

export function guardedPost(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: GuardedPostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const fail = (error: unknown) =>
      resolve({
        kind: 'error',
        error: error instanceof Error ? error.message : String(error),
        durationMs: elapsed(),
      });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return fail(new TargetRefusedError(`invalid URL ${target}`));
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return fail(new TargetRefusedError(`scheme ${url.protocol} is not allowed`));
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivateTargets && isIP(host) && !isPublicAddress(host))
      return fail(new TargetRefusedError(`refused: ${host} is not a public address`));

    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      // Without an agent, node opens the connection with `createConnection` (tests).
      ...(options.connect
        ? { createConnection: options.connect }
        : { agent: agentFor(options, url.protocol) }),
      lookup: guardedLookup(options),
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no response within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('socket', (socket: Socket) => {
      const checkRemote = () => {
        const remote = socket.remoteAddress ?? '';
        if (!options.allowPrivateTargets && !isPublicAddress(remote))
          request.destroy(new TargetRefusedError(`refused: connected to ${remote}, not a public address`));
      };
      // Registered before the request's own 'connect' listener flushes the body, so a refused
      // socket never carries a byte; a reused keep-alive socket is checked at once.
      if (socket.connecting) socket.once('connect', checkRemote);
      else checkRemote();
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    request.on('response', (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (received.length < MAX_LOGGED_BODY) received += chunk;
      });
      response.on('error', () => undefined);
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          kind: 'response',
          statusCode: response.statusCode ?? 0,
          retryAfterMs: retryAfterMs(response.headers['retry-after']),
          responseBody: received.slice(0, MAX_LOGGED_BODY),
          durationMs: elapsed(),
        });
      });
    });
    request.end(body);
  });
}

function guardedLookup(options: GuardedPostOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const resolved: Promise<string[]> = options.resolve
      ? options.resolve(hostname)
      : new Promise((ok, ko) =>
          dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) =>
            error ? ko(error) : ok(addresses.map((a) => a.address)),
          ),
        );
    resolved.then(
      (addresses) => {
        const refused = options.allowPrivateTargets ? undefined : addresses.find((a) => !isPublicAddress(a));
        if (addresses.length === 0) return callback(new Error(`${hostname} did not resolve`), '', 4);
        if (refused)
          return callback(
            new TargetRefusedError(`refused: ${hostname} resolves to ${refused}, not a public address`),
            '',
            4,
          );
        const entries = addresses.map((address) => ({ address, family: isIP(address) }));
        if (lookupOptions.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, entries);
        const first = entries[0]!;
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

function retryAfterMs(header: string | undefined): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1_000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
