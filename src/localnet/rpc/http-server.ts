import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcDispatcher } from './json-rpc-dispatcher.js';

/** Requests above this are refused (a transaction is at most 1232 bytes; batches stay far below). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
};

/** The JSON-RPC HTTP endpoint: POST bodies to the dispatcher, GET /health for probes. */
export async function startHttpServer(
  dispatcher: JsonRpcDispatcher,
  host: string,
  port: number,
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return send(res, 204, '');
    if (req.method === 'GET' && req.url?.split('?')[0] === '/health')
      return send(res, 200, 'ok', 'text/plain');
    if (req.method !== 'POST')
      return send(res, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
    readBody(req, res, (body) => {
      const response = dispatcher.handle(body);
      if (response instanceof Promise) response.then((r) => send(res, 200, r ?? '', 'application/json'));
      else send(res, 200, response ?? '', 'application/json');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

function readBody(req: IncomingMessage, res: ServerResponse, onBody: (body: string) => void): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    send(res, 413, 'Payload Too Large', 'text/plain');
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refused = true;
      send(res, 413, 'Payload Too Large', 'text/plain');
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!refused) onBody(Buffer.concat(chunks).toString('utf8'));
  });
  req.on('error', () => res.destroy());
}

function send(res: ServerResponse, status: number, body: string, contentType?: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...(contentType ? { 'content-type': contentType } : {}),
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function serverPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}
