/**
 * `getMultipleAccounts` over node:http (keep-alive) + JSON.parse: the hot read of the API (every
 * bid, every auction detail, the chain clock). web3.js's Connection answers the same call with
 * the same `AccountInfo` objects, but spends several times the CPU on its generic JSON-RPC client
 * and the validation of the response (fetch alone costs twice node:http); here the response is
 * checked field by field, by hand. Like web3.js, a 429 is retried with a doubling delay (500 ms,
 * up to 5 attempts).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type AccountInfo, type Commitment, PublicKey } from '@solana/web3.js';
import { base58Of } from './base58-of.js';

interface RpcAccount {
  readonly data: [string, string];
  readonly executable: boolean;
  readonly lamports: number;
  readonly owner: string;
  readonly rentEpoch: number;
  readonly space?: number;
}

interface RpcReply {
  readonly result?: { readonly context: { readonly slot: number }; readonly value: (RpcAccount | null)[] };
  readonly error?: { readonly code: number; readonly message: string };
}

const MAX_ATTEMPTS = 5;
const FIRST_RETRY_DELAY_MS = 500;

export class RpcResponseError extends Error {
  override readonly name = 'RpcResponseError';
}

/** Owners repeat (the program, the system program): one PublicKey per distinct owner. */
const owners = new Map<string, PublicKey>();
function ownerKey(base58: string): PublicKey {
  let key = owners.get(base58);
  if (!key) {
    key = new PublicKey(base58);
    if (owners.size < 1_000) owners.set(base58, key);
  }
  return key;
}

function accountInfo(raw: RpcAccount | null, i: number): AccountInfo<Buffer> | null {
  if (raw === null) return null;
  const { data, executable, lamports, owner, rentEpoch, space } = raw;
  if (
    !Array.isArray(data) ||
    data[1] !== 'base64' ||
    typeof data[0] !== 'string' ||
    typeof executable !== 'boolean' ||
    typeof lamports !== 'number' ||
    typeof owner !== 'string' ||
    typeof rentEpoch !== 'number'
  ) {
    throw new RpcResponseError(`getMultipleAccounts: account ${i} of the response is malformed`);
  }
  return {
    data: Buffer.from(data[0], 'base64'),
    executable,
    lamports,
    owner: ownerKey(owner),
    rentEpoch,
    ...(space === undefined ? {} : { space }),
  };
}

/** Status and body of one POST. */
interface HttpReply {
  readonly status: number;
  readonly body: string;
}

export class JsonRpcAccounts {
  private nextId = 1;
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

  /** The accounts at `addresses`, in order (null when absent), as web3.js's getMultipleAccountsInfo. */
  async getMultipleAccountsInfo(
    addresses: readonly PublicKey[],
    commitment: Commitment = 'confirmed',
  ): Promise<(AccountInfo<Buffer> | null)[]> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'getMultipleAccounts',
      params: [addresses.map(base58Of), { encoding: 'base64', commitment }],
    });
    const reply = await this.post(body);
    if (reply.error) {
      throw new RpcResponseError(
        `failed to get info for accounts: ${reply.error.code}: ${reply.error.message}`,
      );
    }
    const value = reply.result?.value;
    if (!Array.isArray(value) || value.length !== addresses.length) {
      throw new RpcResponseError('getMultipleAccounts: the response does not list every account asked for');
    }
    return value.map(accountInfo);
  }

  private async post(body: string): Promise<RpcReply> {
    let delayMs = FIRST_RETRY_DELAY_MS;
    for (let attempt = 1; ; attempt++) {
      const reply = await this.postOnce(body);
      if (reply.status === 429 && attempt < MAX_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        delayMs *= 2;
        continue;
      }
      if (reply.status < 200 || reply.status >= 300) {
        throw new RpcResponseError(`getMultipleAccounts: HTTP ${reply.status}`);
      }
      try {
        return JSON.parse(reply.body) as RpcReply;
      } catch {
        throw new RpcResponseError('getMultipleAccounts: the response is not JSON');
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
