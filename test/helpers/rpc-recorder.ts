/**
 * A JSON-RPC proxy in front of a localnet that records the transactions sent through it, so a test
 * can count what a service really put on the wire (preflight failures included, which never land).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';

interface RpcRequest {
  readonly method?: string;
  readonly params?: unknown[];
}

export interface RpcRecorder {
  readonly url: string;
  /** Distinct signatures of every sendTransaction (a re-send of the same bytes counts once). */
  readonly sentSignatures: Set<string>;
  close(): Promise<void>;
}

function signatureOf(params: unknown[] | undefined): string | null {
  const [wire, config] = params ?? [];
  if (typeof wire !== 'string') return null;
  const encoding = (config as { encoding?: string } | undefined)?.encoding ?? 'base58';
  const bytes = encoding === 'base64' ? Buffer.from(wire, 'base64') : bs58.decode(wire);
  return bs58.encode(VersionedTransaction.deserialize(bytes).signatures[0]!);
}

export async function startRpcRecorder(targetUrl: string): Promise<RpcRecorder> {
  const sentSignatures = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    try {
      const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
      for (const request of Array.isArray(parsed) ? parsed : [parsed]) {
        if (request.method !== 'sendTransaction') continue;
        const signature = signatureOf(request.params);
        if (signature) sentSignatures.add(signature);
      }
    } catch {
      // Not ours to judge: the localnet answers malformed requests itself.
    }
    const upstream = await fetch(targetUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sentSignatures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
