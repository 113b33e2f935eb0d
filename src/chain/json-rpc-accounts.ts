/**
 * `getMultipleAccounts` over the lean JSON-RPC transport: the hot read of the API (every bid,
 * every auction detail, the chain clock). web3.js's Connection answers the same call with the same
 * `AccountInfo` objects, but spends several times the CPU on its generic JSON-RPC client and the
 * validation of the response; here the response is checked field by field, by hand.
 */
import { type AccountInfo, type Commitment, PublicKey } from '@solana/web3.js';
import { base58Of } from './base58-of.js';
import { JsonRpcHttp, RpcResponseError } from './json-rpc-http.js';

export { RpcResponseError };

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

export class JsonRpcAccounts {
  private nextId = 1;
  private readonly http: JsonRpcHttp;

  constructor(rpcUrl: string) {
    this.http = new JsonRpcHttp(rpcUrl);
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
    const reply = (await this.http.post(body, 'getMultipleAccounts')) as RpcReply;
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
}
