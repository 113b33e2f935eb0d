import type { Address } from '../../core/address.js';
import {
  type AccountEncodingOptions,
  accountEncodingOptions,
  encodeAccount,
} from '../rpc/account-encoding.js';
import { addressParam, configParam, type Params, required, signatureParam } from '../rpc/params.js';
import { type AccountFilter, matchesFilters, parseAccountFilters } from '../rpc/program-account-filters.js';
import { RPC_ERRORS, RpcError } from '../rpc/rpc-error.js';
import type { AccountChange, Bank } from '../runtime/bank.js';
import type { LedgerAccount } from '../runtime/ledger.js';
import type { TransactionRecord } from '../runtime/transaction-store.js';

/** One websocket connection, as the registry sees it. */
export interface PubsubClient {
  send(message: string): void;
}

type Subscription = { readonly id: number; readonly client: PubsubClient } & (
  | { readonly kind: 'account'; readonly key: Address; readonly options: AccountEncodingOptions }
  | {
      readonly kind: 'program';
      readonly key: Address;
      readonly options: AccountEncodingOptions;
      readonly filters: AccountFilter[];
    }
  | { readonly kind: 'logs'; readonly mentions: Address | null }
  | { readonly kind: 'signature'; readonly key: string }
  | { readonly kind: 'slot' }
  | { readonly kind: 'root' }
);
type Kind = Subscription['kind'];

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
const CLOSED_ACCOUNT: LedgerAccount = {
  lamports: 0n,
  owner: SYSTEM_PROGRAM,
  data: new Uint8Array(0),
  executable: false,
  rentEpoch: 0n,
};

/**
 * Websocket subscriptions and their notifications, in the shapes web3.js's Connection expects.
 * Signature subscriptions fire once and are removed, as on a validator.
 */
export class SubscriptionRegistry {
  private nextId = 0;
  private readonly byId = new Map<number, Subscription>();
  private readonly byKey = new Map<string, Set<Subscription>>();
  private readonly unsubscribeFromBank: () => void;

  constructor(private readonly bank: Bank) {
    this.unsubscribeFromBank = bank.subscribe({
      accounts: (changes) => this.onAccounts(changes),
      transaction: (record) => this.onTransaction(record),
      slot: (slot) => this.onSlot(slot),
    });
  }

  /** Handles `<kind>Subscribe`; returns the id, plus a notification to send right after the reply. */
  subscribe(client: PubsubClient, method: string, params: Params): { id: number; afterReply?: () => void } {
    const id = this.nextId++;
    const subscription = this.parse(id, client, method, params);
    this.byId.set(id, subscription);
    this.index(subscription).add(subscription);
    if (subscription.kind !== 'signature') return { id };
    const record = this.bank.store.get(subscription.key);
    if (!record) return { id };
    return { id, afterReply: () => this.notifySignature(subscription, record) };
  }

  unsubscribe(client: PubsubClient, kind: Kind, id: unknown): true {
    const subscription = typeof id === 'number' ? this.byId.get(id) : undefined;
    if (!subscription || subscription.client !== client || subscription.kind !== kind) {
      throw new RpcError(-32602, 'Invalid subscription id.');
    }
    this.remove(subscription);
    return true;
  }

  removeClient(client: PubsubClient): void {
    for (const subscription of this.byId.values())
      if (subscription.client === client) this.remove(subscription);
  }

  close(): void {
    this.unsubscribeFromBank();
  }

  private parse(id: number, client: PubsubClient, method: string, params: Params): Subscription {
    switch (method) {
      case 'accountSubscribe': {
        const key = addressParam(required(params, 0, 'pubkey'));
        return { id, client, kind: 'account', key, options: accountEncodingOptions(configParam(params, 1)) };
      }
      case 'programSubscribe': {
        const key = addressParam(required(params, 0, 'program id'));
        const config = configParam(params, 1);
        const options = accountEncodingOptions(config);
        return { id, client, kind: 'program', key, options, filters: parseAccountFilters(config['filters']) };
      }
      case 'logsSubscribe':
        configParam(params, 1);
        return { id, client, kind: 'logs', mentions: logsFilter(required(params, 0, 'filter')) };
      case 'signatureSubscribe':
        configParam(params, 1);
        return { id, client, kind: 'signature', key: signatureParam(required(params, 0, 'signature')) };
      case 'slotSubscribe':
        return { id, client, kind: 'slot' };
      case 'rootSubscribe':
        return { id, client, kind: 'root' };
      default:
        throw RPC_ERRORS.methodNotFound();
    }
  }

  private index(subscription: Subscription): Set<Subscription> {
    const key = indexKey(subscription);
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    return set;
  }

  private remove(subscription: Subscription): void {
    this.byId.delete(subscription.id);
    const key = indexKey(subscription);
    const set = this.byKey.get(key);
    set?.delete(subscription);
    if (set?.size === 0) this.byKey.delete(key);
  }

  private onAccounts(changes: readonly AccountChange[]): void {
    if (this.byKey.size === 0) return;
    for (const { key, account } of changes) {
      const current = account ?? CLOSED_ACCOUNT;
      for (const s of this.byKey.get(`account:${key}`) ?? []) {
        const encoded = s.kind === 'account' && tryEncode(current, s.options);
        if (encoded) this.notify(s, 'accountNotification', this.context(encoded));
      }
      if (!account) continue;
      for (const s of this.byKey.get(`program:${account.owner}`) ?? []) {
        if (s.kind !== 'program' || !matchesFilters(account.data, s.filters)) continue;
        const encoded = tryEncode(account, s.options);
        if (encoded) this.notify(s, 'programNotification', this.context({ pubkey: key, account: encoded }));
      }
    }
  }

  private onTransaction(record: TransactionRecord): void {
    for (const s of this.byKey.get(`signature:${record.signature}`) ?? []) {
      if (s.kind === 'signature') this.notifySignature(s, record);
    }
    const logs = this.byKey.get('logs') ?? new Set();
    if (logs.size === 0) return;
    const mentioned = new Set<string>(record.accountKeys);
    const value = this.context({ signature: record.signature, err: record.err, logs: record.logs });
    for (const s of logs) {
      if (s.kind === 'logs' && (s.mentions === null || mentioned.has(s.mentions))) {
        this.notify(s, 'logsNotification', value);
      }
    }
  }

  private onSlot(slot: number): void {
    for (const s of this.byKey.get('slot') ?? []) {
      this.notify(s, 'slotNotification', { parent: slot - 1, root: slot, slot });
    }
    for (const s of this.byKey.get('root') ?? []) this.notify(s, 'rootNotification', slot);
  }

  private notifySignature(subscription: Subscription, record: TransactionRecord): void {
    if (!this.byId.has(subscription.id)) return;
    this.remove(subscription);
    this.notify(subscription, 'signatureNotification', {
      context: { slot: record.slot },
      value: { err: record.err },
    });
  }

  private context<T>(value: T) {
    return { context: { slot: this.bank.clock.slot }, value };
  }

  private notify(subscription: Subscription, method: string, result: unknown): void {
    subscription.client.send(
      JSON.stringify({ jsonrpc: '2.0', method, params: { result, subscription: subscription.id } }),
    );
  }
}

/** An account the subscription's encoding cannot carry (base58 over 128 bytes) is not notified. */
function tryEncode(account: LedgerAccount, options: AccountEncodingOptions) {
  try {
    return encodeAccount(account, options);
  } catch {
    return undefined;
  }
}

function indexKey(s: Subscription): string {
  switch (s.kind) {
    case 'account':
    case 'program':
    case 'signature':
      return `${s.kind}:${s.key}`;
    default:
      return s.kind;
  }
}

/** `"all"`, `"allWithVotes"` (no votes here) or `{mentions: [one address]}`. */
function logsFilter(filter: unknown): Address | null {
  if (filter === 'all' || filter === 'allWithVotes') return null;
  if (typeof filter === 'object' && filter !== null && 'mentions' in filter) {
    const mentions = (filter as { mentions: unknown }).mentions;
    if (!Array.isArray(mentions) || mentions.length !== 1) {
      throw RPC_ERRORS.params('Invalid Request: Only 1 address supported');
    }
    return addressParam(mentions[0]);
  }
  throw RPC_ERRORS.invalidParams(
    'unknown variant, expected `all`, `allWithVotes` or `{"mentions": [address]}`',
  );
}
