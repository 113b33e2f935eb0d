/**
 * What the indexer reads of the chain's history — signatures (`getSignaturesForAddress`), then
 * each transaction's slot, block time, error and logs as one batch JSON-RPC request of
 * `getTransaction` calls — over the lean JSON-RPC transport. web3.js's
 * `getTransactions` sends the same batch but validates and converts every field of every
 * transaction (message, keys, balances) with superstruct: about half of a catch-up's CPU, for
 * fields the indexer never reads (and its union schemas build an error object per signature
 * listed). Here only the fields read are taken, each checked by hand.
 */
import { JsonRpcHttp, RpcResponseError } from './json-rpc-http.js';

export interface TransactionLogs {
  readonly slot: number;
  readonly blockTime: number | null;
  /** The transaction's error (as the RPC reports it), null when it succeeded. */
  readonly err: unknown;
  readonly logMessages: readonly string[];
}

interface RpcTransaction {
  readonly slot?: unknown;
  readonly blockTime?: unknown;
  readonly meta?: { readonly err?: unknown; readonly logMessages?: unknown } | null;
}

interface RpcReply {
  readonly id?: unknown;
  readonly result?: RpcTransaction | readonly unknown[] | null;
  readonly error?: { readonly code: number; readonly message: string };
}

const MAX_BATCH = 100;

function logsOf(raw: RpcTransaction | null | undefined, signature: string): TransactionLogs | null {
  if (raw === null || raw === undefined) return null;
  const { slot, blockTime, meta } = raw;
  const logs = meta?.logMessages ?? [];
  if (
    typeof slot !== 'number' ||
    (blockTime !== null && blockTime !== undefined && typeof blockTime !== 'number') ||
    !Array.isArray(logs) ||
    !logs.every((line) => typeof line === 'string')
  ) {
    throw new RpcResponseError(`getTransaction ${signature}: the response is malformed`);
  }
  return {
    slot,
    blockTime: (blockTime as number | null | undefined) ?? null,
    err: meta?.err ?? null,
    logMessages: logs,
  };
}

/** A `getSignaturesForAddress` entry, as far as the indexer reads it. */
export interface SignatureInfo {
  readonly signature: string;
  readonly slot: number;
  /** The transaction's error, null when it succeeded. */
  readonly err: unknown;
}

export class JsonRpcTransactions {
  private readonly http: JsonRpcHttp;

  constructor(rpcUrl: string) {
    this.http = new JsonRpcHttp(rpcUrl);
  }

  /**
   * Signatures of transactions that touched `address`, newest first, at most `limit`, after
   * `until` and before `before` when given (web3.js's `getSignaturesForAddress`, 'confirmed').
   */
  async getSignaturesForAddress(
    address: string,
    options: { readonly limit: number; readonly until?: string; readonly before?: string },
  ): Promise<SignatureInfo[]> {
    const [reply] = await this.post(
      JSON.stringify([
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'getSignaturesForAddress',
          params: [address, { ...options, commitment: 'confirmed' }],
        },
      ]),
      'getSignaturesForAddress',
    );
    if (reply?.error)
      throw new RpcResponseError(`getSignaturesForAddress: ${reply.error.code}: ${reply.error.message}`);
    const rows = reply?.result as unknown;
    if (!Array.isArray(rows))
      throw new RpcResponseError('getSignaturesForAddress: the response is malformed');
    return rows.map((row: { signature?: unknown; slot?: unknown; err?: unknown }) => {
      if (typeof row?.signature !== 'string' || typeof row.slot !== 'number')
        throw new RpcResponseError('getSignaturesForAddress: an entry of the response is malformed');
      return { signature: row.signature, slot: row.slot, err: row.err ?? null };
    });
  }

  /**
   * The transactions of `signatures` in order, null for those the RPC does not (yet) have. Sent
   * as batches of at most 100 calls (what RPC providers commonly accept), in parallel.
   */
  async getTransactionLogs(signatures: readonly string[]): Promise<(TransactionLogs | null)[]> {
    const batches: Promise<(TransactionLogs | null)[]>[] = [];
    for (let i = 0; i < signatures.length; i += MAX_BATCH)
      batches.push(this.transactionBatch(signatures.slice(i, i + MAX_BATCH)));
    return (await Promise.all(batches)).flat();
  }

  private async transactionBatch(signatures: readonly string[]): Promise<(TransactionLogs | null)[]> {
    const body = JSON.stringify(
      signatures.map((signature, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'getTransaction',
        params: [signature, { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
      })),
    );
    const replies = await this.post(body, 'getTransaction batch');
    if (!Array.isArray(replies) || replies.length !== signatures.length)
      throw new RpcResponseError('getTransaction batch: the response does not answer every request');
    const byId = new Map<unknown, RpcReply>(replies.map((reply) => [reply.id, reply]));
    return signatures.map((signature, id) => {
      const reply = byId.get(id);
      if (!reply) throw new RpcResponseError(`getTransaction ${signature}: no answer in the batch`);
      if (reply.error)
        throw new RpcResponseError(
          `getTransaction ${signature}: ${reply.error.code}: ${reply.error.message}`,
        );
      return logsOf(reply.result as RpcTransaction | null | undefined, signature);
    });
  }

  private async post(body: string, what: string): Promise<RpcReply[]> {
    return (await this.http.post(body, what)) as RpcReply[];
  }
}
