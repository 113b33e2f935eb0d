/**
 * Sends a signed transaction and confirms it by polling `getSignatureStatuses`, so it works against
 * RPCs that have no websocket (web3.js's `confirmTransaction` needs one). The same bytes are re-sent
 * every ~2 s until the transaction lands or its blockhash expires: a transaction executes at most once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Connection,
  SendTransactionError,
  type SignatureStatus,
  type TransactionError,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';

export type ConfirmationLevel = 'processed' | 'confirmed' | 'finalized';

export interface BlockhashLifetime {
  readonly blockhash: string;
  readonly lastValidBlockHeight: number;
}

export interface SendAndConfirmOptions {
  /** Default 'confirmed'. */
  readonly commitment?: ConfirmationLevel;
  /** Between status polls; default 250 ms. */
  readonly pollMs?: number;
  /** Between re-sends while the transaction is not seen; default 2000 ms. */
  readonly resendMs?: number;
  /** Gives up with TransactionTimeoutError; default 60 000 ms. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly skipPreflight?: boolean;
  /** Waits between polls. Injectable so tests drive the loop without sleeping. */
  readonly delay?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds clock for the resend and timeout bookkeeping; default performance.now. */
  readonly now?: () => number;
}

export interface ConfirmedTransaction {
  readonly signature: string;
  readonly slot: number;
  readonly confirmationStatus: ConfirmationLevel;
}

/** The transaction failed: in preflight simulation (nothing landed) or on chain (fee charged). */
export class TransactionFailedError extends Error {
  override readonly name = 'TransactionFailedError';
  constructor(
    readonly signature: string,
    /** The RPC's TransactionError JSON, e.g. `{ InstructionError: [0, { Custom: 6000 }] }`, or its message. */
    readonly err: TransactionError | string,
    readonly logs: readonly string[],
    readonly stage: 'preflight' | 'execution',
  ) {
    super(
      `transaction ${signature} failed in ${stage}: ${typeof err === 'string' ? err : JSON.stringify(err)}`,
    );
  }

  /** The program's custom error code (`custom program error: 0x…`), if that is how it failed. */
  get customErrorCode(): number | null {
    if (typeof this.err !== 'object' || this.err === null || !('InstructionError' in this.err)) return null;
    const [, inner] = (this.err as { InstructionError: [number, unknown] }).InstructionError;
    return typeof inner === 'object' && inner !== null && 'Custom' in inner ? Number(inner.Custom) : null;
  }
}

/** The blockhash expired (block height passed lastValidBlockHeight) and the transaction never landed. */
export class TransactionExpiredError extends Error {
  override readonly name = 'TransactionExpiredError';
  constructor(
    readonly signature: string,
    readonly lastValidBlockHeight: number,
    readonly blockHeight: number,
  ) {
    super(
      `transaction ${signature} expired: block height ${blockHeight} > last valid ${lastValidBlockHeight}; rebuild it with a fresh blockhash`,
    );
  }
}

/** No decision within the timeout (e.g. the RPC is unreachable); the transaction may still land. */
export class TransactionTimeoutError extends Error {
  override readonly name = 'TransactionTimeoutError';
  constructor(
    readonly signature: string,
    readonly timeoutMs: number,
    cause?: unknown,
  ) {
    super(
      `transaction ${signature} not confirmed within ${timeoutMs} ms`,
      cause === undefined ? undefined : { cause },
    );
  }
}

const LEVELS: Record<ConfirmationLevel, number> = { processed: 0, confirmed: 1, finalized: 2 };

function levelOf(status: SignatureStatus): ConfirmationLevel {
  // Nodes that omit confirmationStatus report a rooted (finalized) transaction with confirmations: null.
  return status.confirmationStatus ?? (status.confirmations === null ? 'finalized' : 'processed');
}

/** The base58 signature of the fee payer: the transaction's id, known before it is sent. */
export function transactionSignature(signedTx: Uint8Array): string {
  const signature = VersionedTransaction.deserialize(signedTx).signatures[0];
  if (!signature || signature.every((b) => b === 0)) {
    throw new TypeError('transaction is not signed by its fee payer');
  }
  return bs58.encode(signature);
}

const CUSTOM_ERROR = /Error processing Instruction (\d+): custom program error: 0x([0-9a-f]+)/i;

/** Preflight answers that do not mean the transaction failed: keep polling and let the block height decide. */
const NOT_A_FAILURE = /blockhash not found|already been processed|AlreadyProcessed/i;

function preflightFailure(signature: string, e: SendTransactionError): TransactionFailedError | null {
  const { message, logs } = e.transactionError;
  if (NOT_A_FAILURE.test(message)) return null;
  const custom = CUSTOM_ERROR.exec(message);
  const err: TransactionError | string = custom
    ? { InstructionError: [Number(custom[1]), { Custom: Number.parseInt(custom[2]!, 16) }] }
    : message;
  return new TransactionFailedError(signature, err, logs ?? [], 'preflight');
}

async function executionFailure(
  connection: Connection,
  signature: string,
  err: TransactionError,
  commitment: ConfirmationLevel,
): Promise<TransactionFailedError> {
  let logs: readonly string[] = [];
  try {
    const tx = await connection.getTransaction(signature, {
      commitment: commitment === 'finalized' ? 'finalized' : 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    logs = tx?.meta?.logMessages ?? [];
  } catch {
    // The failure is known from the status; logs are a best-effort addition.
  }
  return new TransactionFailedError(signature, err, logs, 'execution');
}

async function statusOf(connection: Connection, signature: string): Promise<SignatureStatus | null> {
  const { value } = await connection.getSignatureStatuses([signature]);
  return value[0] ?? null;
}

/**
 * Sends `signedTx` and waits until it reaches `commitment`. Throws TransactionFailedError (with
 * logs), TransactionExpiredError, TransactionTimeoutError, or the signal's reason when aborted.
 */
export async function sendAndConfirmByPolling(
  connection: Connection,
  signedTx: Uint8Array,
  lifetime: BlockhashLifetime,
  options: SendAndConfirmOptions = {},
): Promise<ConfirmedTransaction> {
  const {
    commitment = 'confirmed',
    pollMs = 250,
    resendMs = 2_000,
    timeoutMs = 60_000,
    signal,
    skipPreflight = false,
    delay = (ms, s) => sleep(ms, undefined, { signal: s }),
    now = () => performance.now(),
  } = options;
  const signature = transactionSignature(signedTx);
  const started = now();
  let lastError: unknown;
  signal?.throwIfAborted();

  try {
    await connection.sendRawTransaction(signedTx, {
      skipPreflight,
      preflightCommitment: commitment,
      maxRetries: 0,
    });
  } catch (e) {
    const failure = e instanceof SendTransactionError ? preflightFailure(signature, e) : null;
    if (failure) throw failure;
    lastError = e;
  }
  let lastSent = now();

  for (;;) {
    signal?.throwIfAborted();
    try {
      let status = await statusOf(connection, signature);
      if (status === null) {
        const blockHeight = await connection.getBlockHeight(commitment);
        if (blockHeight > lifetime.lastValidBlockHeight) {
          // It may have landed in the last valid block since the status above.
          status = await statusOf(connection, signature);
          if (status === null)
            throw new TransactionExpiredError(signature, lifetime.lastValidBlockHeight, blockHeight);
        } else if (now() - lastSent >= resendMs) {
          lastSent = now();
          await connection
            .sendRawTransaction(signedTx, { skipPreflight: true, maxRetries: 0 })
            .catch((e: unknown) => {
              lastError = e;
            });
        }
      }
      if (status !== null && LEVELS[levelOf(status)] >= LEVELS[commitment]) {
        if (status.err) throw await executionFailure(connection, signature, status.err, commitment);
        return { signature, slot: status.slot, confirmationStatus: levelOf(status) };
      }
    } catch (e) {
      if (e instanceof TransactionFailedError || e instanceof TransactionExpiredError) throw e;
      // RPC trouble is transient until the timeout says otherwise.
      lastError = e;
    }
    if (now() - started >= timeoutMs) throw new TransactionTimeoutError(signature, timeoutMs, lastError);
    await delay(pollMs, signal);
  }
}
