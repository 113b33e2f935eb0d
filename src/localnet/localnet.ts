import type { Server } from 'node:http';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { type Logger, pino } from 'pino';
import type { Address } from '../core/address.js';
import { AUCTION_PROGRAM_ID } from '../core/program/ids.js';
import { builtinPrograms } from './programs/builtin-programs.js';
import { type PubsubServer, startPubsubServer } from './pubsub/pubsub-server.js';
import { SubscriptionRegistry } from './pubsub/subscription-registry.js';
import { serverPort, startHttpServer } from './rpc/http-server.js';
import { JsonRpcDispatcher } from './rpc/json-rpc-dispatcher.js';
import { accountMethods } from './rpc/methods/account-methods.js';
import { clusterMethods } from './rpc/methods/cluster-methods.js';
import { localnetMethods } from './rpc/methods/localnet-methods.js';
import { transactionMethods } from './rpc/methods/transaction-methods.js';
import { Bank } from './runtime/bank.js';
import { configAddress, genesisLedger, installKeeper, newGenesisHash } from './runtime/genesis.js';
import { SlotClock } from './runtime/slot-clock.js';
import { TransactionStore } from './runtime/transaction-store.js';
import { loadSnapshot, SnapshotWriter } from './snapshot.js';

export interface LocalnetOptions {
  /** JSON-RPC port; default 8899, 0 picks a free one. */
  readonly rpcPort?: number;
  /** Pubsub websocket port; default rpcPort + 1 (a free one when rpcPort is 0). */
  readonly wsPort?: number;
  readonly host?: string;
  /** The keeper (Config keeper and authority, funded with 1,000 SOL); generated when absent. */
  readonly keeper?: Keypair;
  /** Platform fee written to the Config at genesis; default 0. */
  readonly feeBps?: number;
  /** Loaded at start when it exists; saved on close and every few seconds after changes. */
  readonly snapshotFile?: string;
  /** Slot length; default 400 ms. */
  readonly slotMs?: number;
  readonly logger?: Logger;
}

export interface LocalnetTime {
  readonly unixTimestamp: number;
  readonly slot: number;
}

export interface Localnet {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly keeper: Keypair;
  readonly treasury: PublicKey;
  readonly programId: PublicKey;
  /** In-process access for benchmarks; tests go through the wire. */
  readonly bank: Bank;
  /** A stock web3.js Connection to this localnet (websocket endpoint set, commitment 'confirmed'). */
  connection(): Connection;
  /** `localnet_registerDomain`: creates `name.sol` owned by `owner`; returns its name account. */
  registerDomain(name: string, owner: PublicKey | string): Promise<PublicKey>;
  /** `localnet_warpTime`: moves chain time forward. */
  warpTime(seconds: number): Promise<LocalnetTime>;
  getTime(): Promise<LocalnetTime>;
  close(): Promise<void>;
}

/** Starts the embedded chain in this process: HTTP JSON-RPC, pubsub websocket, slot ticker. */
export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const host = options.host ?? '127.0.0.1';
  const rpcPort = options.rpcPort ?? 8899;
  const wsPort = options.wsPort ?? (rpcPort === 0 ? 0 : rpcPort + 1);
  const programs = builtinPrograms();
  const snapshot = options.snapshotFile ? await loadSnapshot(options.snapshotFile) : undefined;
  const keeper = options.keeper ?? snapshot?.keeper ?? Keypair.generate();
  const treasury = snapshot?.treasury ?? (Keypair.generate().publicKey.toBase58() as Address);
  const faucet = snapshot?.faucet ?? Keypair.generate();
  const genesisHash = snapshot?.genesisHash ?? newGenesisHash();
  const nowMs = () => Date.now();
  const ledger =
    snapshot?.ledger ?? genesisLedger({ programs, keeper, faucet, treasury, feeBps: options.feeBps ?? 0 });
  if (snapshot) installKeeper(ledger, keeper.publicKey.toBase58() as Address);
  const bank = new Bank({
    ledger,
    clock: snapshot ? new SlotClock(snapshot.clock, nowMs) : SlotClock.genesis(genesisHash, nowMs),
    store: snapshot?.store ?? new TransactionStore(),
    programs,
    faucet,
    genesisHash,
    onListenerError: (err) => logger.error({ err }, 'localnet listener failed'),
  });

  const info = {
    keeper: keeper.publicKey.toBase58() as Address,
    treasury,
    programId: AUCTION_PROGRAM_ID,
    config: configAddress()[0],
  };
  const identity = Keypair.generate().publicKey.toBase58() as Address;
  const methods = { ...clusterMethods, ...accountMethods, ...transactionMethods, ...localnetMethods };
  const dispatcher = new JsonRpcDispatcher(methods, { bank, identity, info }, logger);
  const registry = new SubscriptionRegistry(bank);
  let http: Server | undefined;
  let pubsub: PubsubServer | undefined;
  try {
    http = await startHttpServer(dispatcher, host, rpcPort);
    pubsub = await startPubsubServer(registry, host, wsPort, logger);
  } catch (err) {
    http?.closeAllConnections();
    http?.close();
    registry.close();
    throw err;
  }
  const ticker = setInterval(() => bank.advanceSlot(), options.slotMs ?? 400);
  ticker.unref();
  const writer = options.snapshotFile
    ? new SnapshotWriter(options.snapshotFile, bank, keeper, treasury, (err) =>
        logger.error({ err }, 'snapshot save failed'),
      )
    : undefined;

  const rpcUrl = `http://${host}:${serverPort(http)}`;
  const wsUrl = `ws://${host}:${pubsub.port}`;
  logger.info({ rpcUrl, wsUrl, programId: AUCTION_PROGRAM_ID, keeper: info.keeper }, 'localnet started');
  const call = rpcCaller(rpcUrl);
  const httpServer = http;
  const pubsubServer = pubsub;
  let closed: Promise<void> | undefined;

  return {
    rpcUrl,
    wsUrl,
    keeper,
    treasury: new PublicKey(treasury),
    programId: new PublicKey(AUCTION_PROGRAM_ID),
    bank,
    connection: () => new Connection(rpcUrl, { wsEndpoint: wsUrl, commitment: 'confirmed' }),
    registerDomain: async (name, owner) => {
      const result = await call<{ nameAccount: string }>('localnet_registerDomain', [name, owner.toString()]);
      return new PublicKey(result.nameAccount);
    },
    warpTime: (seconds) => call('localnet_warpTime', [seconds]),
    getTime: () => call('localnet_getTime', []),
    close: () => {
      closed ??= (async () => {
        clearInterval(ticker);
        await pubsubServer.close();
        registry.close();
        httpServer.closeAllConnections();
        await new Promise((resolve) => httpServer.close(resolve));
        await writer?.close();
        await bank.close();
        logger.info('localnet stopped');
      })();
      return closed;
    },
  };
}

function rpcCaller(rpcUrl: string) {
  let id = 0;
  return async <T>(method: string, params: unknown[]): Promise<T> => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: `localnet-${++id}`, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) throw new Error(`${method} failed (${body.error.code}): ${body.error.message}`);
    return body.result as T;
  };
}
