import { type Commitment, Connection } from '@solana/web3.js';

export interface ConnectionOptions {
  /** Pubsub endpoint; web3.js derives ws://host:port+1 from the RPC URL when absent. */
  readonly wsUrl?: string;
  /** Default 'confirmed'. */
  readonly commitment?: Commitment;
}

/**
 * A web3.js Connection for the service. Confirmation never depends on the websocket
 * (see send-and-confirm.ts); subscriptions (the indexer) do.
 */
export function createConnection(rpcUrl: string, options: ConnectionOptions = {}): Connection {
  return new Connection(rpcUrl, {
    commitment: options.commitment ?? 'confirmed',
    ...(options.wsUrl === undefined ? {} : { wsEndpoint: options.wsUrl }),
    // 429s are retried with backoff by web3.js itself.
    disableRetryOnRateLimit: false,
  });
}
