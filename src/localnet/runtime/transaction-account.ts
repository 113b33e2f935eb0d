import { type Address, isAddress } from '../../core/address.js';
import { type LedgerAccount, RENT_EXEMPT_EPOCH } from './ledger.js';
import type { InstructionErrorJson } from './program-abi.js';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
/** `MAX_PERMITTED_DATA_LENGTH`: 10 MiB. */
export const MAX_ACCOUNT_DATA_LENGTH = 10 * 1024 * 1024;

export interface AccountSnapshot {
  readonly lamports: bigint;
  readonly owner: Address;
  readonly data: Uint8Array;
  readonly executable: boolean;
}

/**
 * An account while a transaction runs. Data is copy-on-write: the ledger's (or a snapshot's) bytes
 * are shared until a program asks for them, so untouched accounts cost no copy and the ledger is
 * never written in place.
 */
export class TransactionAccount {
  lamports: bigint;
  owner: Address;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  private bytes: Uint8Array;
  private shared = true;

  constructor(
    readonly key: Address,
    readonly original: LedgerAccount | undefined,
  ) {
    this.lamports = original?.lamports ?? 0n;
    this.owner = original?.owner ?? SYSTEM_PROGRAM;
    this.executable = original?.executable ?? false;
    this.rentEpoch = original?.rentEpoch ?? RENT_EXEMPT_EPOCH;
    this.bytes = original?.data ?? EMPTY;
  }

  get data(): Uint8Array {
    if (this.shared) {
      this.bytes = this.bytes.slice();
      this.shared = false;
    }
    return this.bytes;
  }

  set data(value: Uint8Array) {
    if (!(value instanceof Uint8Array)) throw new TypeError('account data must be a Uint8Array');
    this.bytes = value;
    this.shared = false;
  }

  /** The current bytes without taking ownership (never write through this). */
  peekData(): Uint8Array {
    return this.bytes;
  }

  snapshot(): AccountSnapshot {
    // Bytes a program may hold a reference to are copied; shared bytes cannot change under us.
    const data = this.shared ? this.bytes : this.bytes.slice();
    return { lamports: this.lamports, owner: this.owner, data, executable: this.executable };
  }

  isModified(): boolean {
    const o = this.original;
    if (!o) return this.lamports !== 0n;
    return (
      this.lamports !== o.lamports ||
      this.owner !== o.owner ||
      (this.bytes !== o.data && !bytesEqual(this.bytes, o.data))
    );
  }

  toLedgerAccount(): LedgerAccount {
    this.shared = true;
    return {
      lamports: this.lamports,
      owner: this.owner,
      data: this.bytes,
      executable: this.executable,
      rentEpoch: this.rentEpoch,
    };
  }
}

/**
 * What a validator checks about one account after a program ran (Agave's `PreAccount::verify`):
 * only the owner changes data, size or owner, or debits lamports; read-only and executable
 * accounts do not change.
 */
export function verifyAccountChange(
  pre: AccountSnapshot,
  post: TransactionAccount,
  programId: Address,
  isWritable: boolean,
): InstructionErrorJson | null {
  const data = post.peekData();
  const ownedByProgram = pre.owner === programId;
  if (pre.owner !== post.owner) {
    if (!isWritable || pre.executable || !ownedByProgram || !isZeroed(data) || !isAddress(post.owner)) {
      return 'ModifiedProgramId';
    }
  }
  if (!ownedByProgram && post.lamports < pre.lamports) return 'ExternalAccountLamportSpend';
  if (post.lamports !== pre.lamports) {
    if (!isWritable) return 'ReadonlyLamportChange';
    if (pre.executable) return 'ExecutableLamportChange';
  }
  if (data.length > MAX_ACCOUNT_DATA_LENGTH) return 'InvalidRealloc';
  if (data.length !== pre.data.length && !ownedByProgram) return 'AccountDataSizeChanged';
  if (
    !(ownedByProgram && isWritable && !pre.executable) &&
    data !== pre.data &&
    !bytesEqual(data, pre.data)
  ) {
    if (pre.executable) return 'ExecutableDataModified';
    return isWritable ? 'ExternalAccountDataModified' : 'ReadonlyDataModified';
  }
  return null;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function isZeroed(data: Uint8Array): boolean {
  for (let i = 0; i < data.length; i++) if (data[i] !== 0) return false;
  return true;
}

const EMPTY = new Uint8Array(0);
