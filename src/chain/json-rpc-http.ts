/**
 * The transport of the lean JSON-RPC readers (`JsonRpcAccounts`, `JsonRpcTransactions`): a POST
 * over node:http(s) with a keep-alive agent (fetch alone costs twice node:http) and JSON.parse,
 * nothing validated here: each reader checks the fields it takes, by hand. Like web3.js, a 429 is
 * retried with a doubling delay (500 ms, up to 5 attempts).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

const MAX_ATTEMPTS = 5;
const FIRST_RETRY_DELAY_MS = 500;

export class RpcResponseError extends Error {
  override readonly name = 'RpcResponseError';
}

/** Status and body of one POST. */
interface HttpReply {
  readonly status: number;
  readonly body: string;
}

export class JsonRpcHttp {
  private readonly url: URL;
  private readonly send: typeof httpRequest;
  // As web3.js's agent: a second under the Solana RPC's keep-alive timeout, at most 25 sockets.
  private readonly agent: HttpAgent;

  constructor(rpcUrl: string) {
    this.url = new URL(rpcUrl);
    const https = this.url.protocol === 'https:';
    this.send = https ? httpsRequest : httpRequest;
    const options = { keepAlive: true, maxSockets: 25, timeout: 19_000 };
    this.agent = https ? new HttpsAgent(options) : new HttpAgent(options);
  }

  /** POSTs `body` (one request or a batch) and parses the answer; `what` names the call in errors. */
  async post(body: string, what: string): Promise<unknown> {
    let delayMs = FIRST_RETRY_DELAY_MS;
    for (let attempt = 1; ; attempt++) {
      const reply = await this.postOnce(body);
      if (reply.status === 429 && attempt < MAX_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        delayMs *= 2;
        continue;
      }
      if (reply.status < 200 || reply.status >= 300)
        throw new RpcResponseError(`${what}: HTTP ${reply.status}`);
      try {
        return JSON.parse(reply.body) as unknown;
      } catch {
        throw new RpcResponseError(`${what}: the response is not JSON`);
      }
    }
  }

  /** One POST; a kept-alive socket the server closed meanwhile is retried once on a new one. */
  private async postOnce(body: string): Promise<HttpReply> {
    try {
      return await this.postOn(body);
    } catch (error) {
      if ((error as { reusedSocket?: boolean }).reusedSocket) return this.postOn(body);
      throw error;
    }
  }

  private postOn(body: string): Promise<HttpReply> {
    return new Promise((resolve, reject) => {
      const request = this.send(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && error.code === 'ECONNRESET';
        reject(stale ? Object.assign(error, { reusedSocket: true }) : error);
      });
      request.end(body);
    });
  }
}
