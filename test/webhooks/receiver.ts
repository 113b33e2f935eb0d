import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, unknown> & { id: string; event: string; data: Record<string, unknown> };
}

/** Decides the answer to a request; may hold the response (never answering) by returning null. */
export type Responder = (request: ReceivedRequest, response: ServerResponse) => number | null;

/** A real HTTP receiver on 127.0.0.1:0 that records every request and lets a test wait on them. */
export interface Receiver {
  readonly url: string;
  readonly received: ReceivedRequest[];
  respond: Responder;
  /** Resolves once `condition` holds over the requests received so far. */
  waitFor(condition: (received: readonly ReceivedRequest[]) => boolean): Promise<readonly ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const waiters: { condition: (r: readonly ReceivedRequest[]) => boolean; resolve: () => void }[] = [];
  const notify = () => {
    for (const waiter of [...waiters])
      if (waiter.condition(received)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  const receiver: Receiver = {
    url: '',
    received,
    respond,
    async waitFor(condition) {
      if (!condition(received)) await new Promise<void>((resolve) => waiters.push({ condition, resolve }));
      return received;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body, json: JSON.parse(body || '{}') };
      received.push(request);
      const status = receiver.respond(request, res);
      if (status !== null && !res.headersSent) res.writeHead(status).end('ok');
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (receiver as { url: string }).url = `http://127.0.0.1:${port}`;
  return receiver;
}
