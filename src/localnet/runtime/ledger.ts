import type { Address } from '../../core/address.js';

/** Solana's "rent epoch" of accounts that are rent exempt (u64::MAX). */
export const RENT_EXEMPT_EPOCH = 0xffff_ffff_ffff_ffffn;

/**
 * A stored account. Treated as immutable once in the ledger: execution copies before writing and
 * commits a new object, so readers (RPC encoders, caches keyed by `data`) never see a torn write.
 */
export interface LedgerAccount {
  readonly lamports: bigint;
  readonly owner: Address;
  readonly data: Uint8Array;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
}

/** The account store, with an owner index so program-account scans touch only that program's accounts. */
export class Ledger {
  private readonly accounts = new Map<Address, LedgerAccount>();
  private readonly byOwner = new Map<Address, Map<Address, LedgerAccount>>();

  get size(): number {
    return this.accounts.size;
  }

  get(key: Address): LedgerAccount | undefined {
    return this.accounts.get(key);
  }

  /** Stores the account; an account without lamports no longer exists (as on Solana). */
  set(key: Address, account: LedgerAccount): void {
    const previous = this.accounts.get(key);
    if (previous) this.byOwner.get(previous.owner)?.delete(key);
    if (account.lamports === 0n) {
      this.accounts.delete(key);
      return;
    }
    this.accounts.set(key, account);
    let owned = this.byOwner.get(account.owner);
    if (!owned) {
      owned = new Map();
      this.byOwner.set(account.owner, owned);
    }
    owned.set(key, account);
  }

  /** Accounts owned by `program` (live view; do not mutate the ledger while iterating). */
  ownedBy(program: Address): ReadonlyMap<Address, LedgerAccount> {
    return this.byOwner.get(program) ?? EMPTY;
  }

  entries(): IterableIterator<[Address, LedgerAccount]> {
    return this.accounts.entries();
  }
}

const EMPTY: ReadonlyMap<Address, LedgerAccount> = new Map();
