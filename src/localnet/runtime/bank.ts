import type { Keypair } from '@solana/web3.js';
import type { Address } from '../../core/address.js';
import { newDomainAccount } from './domain-registration.js';
import { Faucet } from './faucet.js';
import { type TransactionShape, transactionCost } from './fees.js';
import type { InnerInstruction, ProgramRegistry } from './invocation.js';
import type { Ledger, LedgerAccount } from './ledger.js';
import type { Syscalls } from './program-abi.js';
import { type SanitizedTransaction, sanitizeTransaction } from './sanitized-transaction.js';
import { SignatureVerifier } from './signature-verifier.js';
import { SignatureWorker } from './signature-worker.js';
import { MAX_PROCESSING_AGE, type SlotClock } from './slot-clock.js';
import { StatusCache } from './status-cache.js';
import { createSyscalls } from './syscalls.js';
import { clockSysvarAccount } from './sysvars.js';
import type { TransactionErrorJson } from './transaction-error.js';
import {
  type ExecutedTransaction,
  type ProcessedTransaction,
  processTransaction,
} from './transaction-processor.js';
import type { TransactionRecord, TransactionStore } from './transaction-store.js';
import { SYSVAR_CLOCK_ID } from './well-known-ids.js';

export interface AccountChange {
  readonly key: Address;
  /** null when the account was closed (no lamports left). */
  readonly account: LedgerAccount | null;
}

export interface BankListener {
  transaction?(record: TransactionRecord): void;
  accounts?(changes: readonly AccountChange[]): void;
  slot?(slot: number): void;
}

export interface SimulationResult {
  readonly accountKeys: readonly Address[];
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: number;
  readonly innerInstructions: ReadonlyMap<number, readonly InnerInstruction[]>;
  readonly accountAfter: (key: Address) => LedgerAccount | undefined;
}

export type SendResult =
  /** Executed and recorded; `record.err` is set when it failed (only with skipPreflight). */
  | { readonly kind: 'landed'; readonly record: TransactionRecord }
  /** skipPreflight: accepted but dropped like a validator drops it; never recorded. */
  | { readonly kind: 'dropped'; readonly signature: string; readonly err: TransactionErrorJson }
  | { readonly kind: 'preflightFailed'; readonly simulation: SimulationResult }
  | { readonly kind: 'signatureFailure' };

export interface BankInit {
  readonly ledger: Ledger;
  readonly clock: SlotClock;
  readonly store: TransactionStore;
  readonly programs: ProgramRegistry;
  readonly faucet: Keypair;
  readonly genesisHash: string;
  /** A listener threw: the chain carries on, the error is reported here. */
  readonly onListenerError?: (err: unknown) => void;
}

/**
 * The chain: ledger, slots and time, transaction execution and history. Everything that changes
 * state goes through here and is announced to listeners (the pubsub server, the snapshot writer).
 */
export class Bank {
  readonly ledger: Ledger;
  readonly clock: SlotClock;
  readonly store: TransactionStore;
  readonly genesisHash: string;
  readonly faucet: Faucet;
  private readonly programs: ProgramRegistry;
  private readonly syscalls: Syscalls = createSyscalls();
  private readonly verifier = new SignatureVerifier();
  private readonly statusCache = new StatusCache();
  private readonly listeners = new Set<BankListener>();
  private readonly onListenerError: (err: unknown) => void;
  private signatureWorker: SignatureWorker | undefined;
  /** Bumped on every state change, so the snapshot writer knows when to save. */
  version = 0;

  constructor(init: BankInit) {
    this.ledger = init.ledger;
    this.clock = init.clock;
    this.store = init.store;
    this.programs = init.programs;
    this.faucet = new Faucet(init.faucet);
    this.genesisHash = init.genesisHash;
    this.onListenerError = init.onListenerError ?? (() => {});
    for (const record of this.store.values()) {
      // Only transactions whose blockhash may still be valid can be replayed.
      if (record.slot >= this.clock.slot - MAX_PROCESSING_AGE - 1) {
        this.statusCache.add(record.signature, sanitizeTransaction(record.raw).recentBlockhash);
      }
    }
    this.ledger.set(SYSVAR_CLOCK_ID, clockSysvarAccount(this.clock.slot, this.clock.unixTimestamp));
  }

  async close(): Promise<void> {
    await this.signatureWorker?.close();
  }

  subscribe(listener: BankListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get transactionCount(): number {
    return this.store.size;
  }

  /** `sendTransaction`. Throws TransactionDecodeError for bytes that are not a sane transaction. */
  sendTransaction(raw: Uint8Array, options: { skipPreflight?: boolean } = {}): SendResult {
    const tx = sanitizeTransaction(raw);
    return this.submit(tx, this.verifier.verifyTransaction(tx), options);
  }

  /** Checks a transaction's signatures off the main thread (the RPC path). */
  verifySignatures(tx: SanitizedTransaction): Promise<boolean> {
    this.signatureWorker ??= new SignatureWorker(this.verifier);
    return this.signatureWorker.verify(tx);
  }

  /** Sends a sanitized transaction whose signatures were checked (`verified` says how that went). */
  submit(tx: SanitizedTransaction, verified: boolean, options: { skipPreflight?: boolean } = {}): SendResult {
    if (options.skipPreflight) {
      if (!verified) return { kind: 'dropped', signature: tx.signature, err: 'SignatureFailure' };
      const result = this.process(tx);
      if (result.kind === 'dropped') return { kind: 'dropped', signature: tx.signature, err: result.err };
      return { kind: 'landed', record: this.commit(tx, result) };
    }
    if (!verified) return { kind: 'signatureFailure' };
    const result = this.process(tx);
    if (result.kind === 'executed' && result.err === null)
      return { kind: 'landed', record: this.commit(tx, result) };
    return { kind: 'preflightFailed', simulation: this.simulationOf(tx, result) };
  }

  /** `simulateTransaction`: runs against current state and keeps nothing. */
  simulateTransaction(
    raw: Uint8Array,
    options: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {},
  ): SimulationResult | { readonly kind: 'signatureFailure' } {
    const tx = sanitizeTransaction(raw);
    if (options.sigVerify && !this.verifier.verifyTransaction(tx)) return { kind: 'signatureFailure' };
    const result = this.process(tx, { checkBlockhash: !options.replaceRecentBlockhash });
    return this.simulationOf(tx, result);
  }

  /** A transfer from the faucet, executed and recorded like any transaction. */
  requestAirdrop(to: Address, lamports: bigint): SendResult {
    const raw = this.faucet.transfer(to, lamports, this.clock.latestBlockhash());
    return this.submit(sanitizeTransaction(raw), true);
  }

  /** The fee a message would be charged (`getFeeForMessage`). */
  feeFor(message: TransactionShape): bigint {
    return transactionCost(message, this.programs).fee;
  }

  /** Localnet-only: creates the SNS name account of `name.sol` owned by `owner`. */
  registerDomain(name: string, owner: Address): Address {
    const [key, account] = newDomainAccount(this.ledger, name, owner);
    this.ledger.set(key, account);
    this.version++;
    this.emit((l) => l.accounts?.([{ key, account }]));
    return key;
  }

  /** Localnet-only: moves chain time forward and starts a new slot carrying it. */
  warpTime(seconds: number): void {
    this.clock.warp(seconds);
    this.advanceSlot();
  }

  advanceSlot(): void {
    for (const blockhash of this.clock.advance()) this.statusCache.expire(blockhash);
    this.ledger.set(SYSVAR_CLOCK_ID, clockSysvarAccount(this.clock.slot, this.clock.unixTimestamp));
    const slot = this.clock.slot;
    this.emit((l) => l.slot?.(slot));
  }

  private process(
    tx: SanitizedTransaction,
    options: { checkBlockhash?: boolean } = {},
  ): ProcessedTransaction {
    return processTransaction(
      {
        ledger: this.ledger,
        programs: this.programs,
        syscalls: this.syscalls,
        clock: { slot: BigInt(this.clock.slot), unixTimestamp: BigInt(this.clock.unixTimestamp) },
        isBlockhashValid: (hash) => this.clock.isBlockhashValid(hash),
        isProcessed: (signature) => this.statusCache.has(signature),
      },
      tx,
      options,
    );
  }

  private simulationOf(tx: SanitizedTransaction, result: ProcessedTransaction): SimulationResult {
    if (result.kind === 'dropped') {
      return {
        accountKeys: tx.accountKeys,
        err: result.err,
        logs: [],
        unitsConsumed: 0,
        innerInstructions: new Map(),
        accountAfter: (key) => this.ledger.get(key),
      };
    }
    const written = new Map(
      result.err ? [] : result.writes.map((w) => [w.key, w.toLedgerAccount()] as const),
    );
    return {
      accountKeys: tx.accountKeys,
      err: result.err,
      logs: result.logs,
      unitsConsumed: result.unitsConsumed,
      innerInstructions: result.innerInstructions,
      accountAfter: (key) => (written.has(key) ? written.get(key) : this.ledger.get(key)),
    };
  }

  private commit(tx: SanitizedTransaction, result: ExecutedTransaction): TransactionRecord {
    const changes: AccountChange[] = result.writes.map((write) => {
      const account = write.toLedgerAccount();
      this.ledger.set(write.key, account);
      return { key: write.key, account: account.lamports === 0n ? null : account };
    });
    this.statusCache.add(tx.signature, tx.recentBlockhash);
    const record = this.store.add({
      signature: tx.signature,
      slot: this.clock.slot,
      blockTime: this.clock.unixTimestamp,
      raw: tx.raw,
      accountKeys: tx.accountKeys,
      err: result.err,
      fee: result.fee,
      preBalances: result.preBalances,
      postBalances: result.postBalances,
      logs: result.logs,
      innerInstructions: [...result.innerInstructions].map(([index, instructions]) => ({
        index,
        instructions,
      })),
      unitsConsumed: result.unitsConsumed,
    });
    this.version++;
    this.emit((l) => l.accounts?.(changes));
    this.emit((l) => l.transaction?.(record));
    return record;
  }

  private emit(call: (listener: BankListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
