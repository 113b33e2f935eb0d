import type { Address } from '../../core/address.js';
import { type InstructionAccount, ProgramError } from './program-abi.js';
import type { TransactionAccount } from './transaction-account.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;

/**
 * An account as one instruction sees it: the shared transaction account under this
 * instruction's signer/writable privileges. Writes go straight to the transaction account; the
 * runtime checks them when the instruction (or a CPI from it) ends.
 */
export class InstructionAccountView implements InstructionAccount {
  constructor(
    private readonly account: TransactionAccount,
    readonly isSigner: boolean,
    readonly isWritable: boolean,
  ) {}

  get key(): Address {
    return this.account.key;
  }

  get executable(): boolean {
    return this.account.executable;
  }

  get lamports(): bigint {
    return this.account.lamports;
  }

  set lamports(value: bigint) {
    if (typeof value !== 'bigint') throw new TypeError('lamports must be a bigint');
    if (value < 0n || value > U64_MAX) throw new ProgramError('ArithmeticOverflow');
    this.account.lamports = value;
  }

  get owner(): Address {
    return this.account.owner;
  }

  set owner(value: Address) {
    if (typeof value !== 'string') throw new TypeError('owner must be a base58 address');
    this.account.owner = value;
  }

  get data(): Uint8Array {
    return this.account.data;
  }

  set data(value: Uint8Array) {
    this.account.data = value;
  }
}
