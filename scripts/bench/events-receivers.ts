/**
 * The webhook receivers of bench:events, run in their own process (forked with IPC) so that
 * receiving does not share an event loop with the worker that delivers or the bench that sends
 * bids. `servers` HTTP servers on 127.0.0.1 answer 200 at once; every request is recorded with
 * its path (the subscription), the event id and type from the body, and the wall-clock time it
 * was fully read (`performance.timeOrigin + performance.now()`: comparable across processes).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reception {
  readonly path: string;
  readonly id: string;
  readonly event: string;
  /** Unix ms with sub-ms precision. */
  readonly at: number;
}

export type ReceiversMessage =
  | { readonly type: 'start'; readonly servers: number }
  | { readonly type: 'collect' }
  | { readonly type: 'reset' };

export type ReceiversReply =
  | { readonly type: 'started'; readonly urls: readonly string[] }
  | { readonly type: 'collected'; readonly receptions: readonly Reception[] };

const servers: Server[] = [];
let receptions: Reception[] = [];
const now = () => performance.timeOrigin + performance.now();

async function start(count: number): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = now();
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string; event?: string };
        receptions.push({ path: req.url ?? '', id: body.id ?? '', event: body.event ?? '', at });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return urls;
}

process.on('message', (message: ReceiversMessage) => {
  if (message.type === 'start')
    void start(message.servers).then((urls) =>
      process.send?.({ type: 'started', urls } satisfies ReceiversReply),
    );
  else if (message.type === 'collect')
    process.send?.({ type: 'collected', receptions } satisfies ReceiversReply);
  else receptions = [];
});
process.on('disconnect', () => {
  for (const server of servers) server.closeAllConnections();
  process.exit(0);
});
