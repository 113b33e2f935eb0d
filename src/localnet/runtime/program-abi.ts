/**
 * The program ABI of the localnet: what a program sees when the runtime invokes it.
 *
 * It mirrors Solana's model closely enough that a program written against it reads like an
 * on-chain program and can be ported to Rust line by line: an entrypoint receives the program id,
 * the instruction's accounts (key, signer/writable flags, and mutable lamports/data/owner), the
 * instruction data, the Clock sysvar and a few syscalls. It returns normally on success and throws
 * a `ProgramError` on failure. The runtime, not the program, enforces the account rules a
 * validator enforces after every instruction (only the owner may change data or debit lamports,
 * only writable accounts change, lamports are conserved, ...).
 */
import type { Address } from '../../core/address.js';

/** An account as an instruction sees it. Mutations are applied by the runtime if the transaction succeeds. */
export interface InstructionAccount {
  readonly key: Address;
  readonly isSigner: boolean;
  readonly isWritable: boolean;
  lamports: bigint;
  /** Owner program id. Only the System program may reassign it (and only while data is empty and the account is system-owned). */
  owner: Address;
  /** Account data. Reassign a new array to resize (System Allocate / CreateAccount do this). */
  data: Uint8Array;
  readonly executable: boolean;
}

/** Account reference inside an instruction built for a cross-program invocation. */
export interface AccountMetaRef {
  readonly key: Address;
  readonly isSigner: boolean;
  readonly isWritable: boolean;
}

export interface CpiInstruction {
  readonly programId: Address;
  readonly accounts: readonly AccountMetaRef[];
  readonly data: Uint8Array;
}

export interface Clock {
  readonly slot: bigint;
  /** Chain time, Unix seconds. The only clock programs (and the service) trust. */
  readonly unixTimestamp: bigint;
}

export interface Syscalls {
  /** `Pubkey::create_program_address`; throws ProgramError('InvalidSeeds') when the result is on the curve. */
  createProgramAddress(seeds: readonly Uint8Array[], programId: Address): Address;
  /** `Pubkey::find_program_address`: the PDA and its bump. */
  findProgramAddress(seeds: readonly Uint8Array[], programId: Address): [Address, number];
  sha256(...chunks: Uint8Array[]): Uint8Array;
  /** Rent-exempt minimum for `dataLength` bytes: (128 + len) * 6960 lamports, as on mainnet. */
  minimumBalance(dataLength: number): bigint;
}

export interface InvokeContext {
  readonly programId: Address;
  readonly accounts: readonly InstructionAccount[];
  readonly data: Uint8Array;
  readonly clock: Clock;
  readonly syscalls: Syscalls;
  /** `msg!`: appends `Program log: <message>`. */
  log(message: string): void;
  /** `sol_log_data`: appends `Program data: <base64> …` (Anchor's `emit!`). */
  logData(...chunks: Uint8Array[]): void;
  /**
   * `invoke_signed`: calls another program with accounts taken from this instruction's accounts.
   * `signerSeeds` are seed lists (bump included) of PDAs of the *calling* program that sign the call.
   * Throws the callee's ProgramError unchanged, which aborts the caller too.
   */
  invoke(instruction: CpiInstruction, signerSeeds?: readonly (readonly Uint8Array[])[]): void;
}

export type ProgramEntrypoint = (ctx: InvokeContext) => void;

/**
 * Solana's `InstructionError`, in the JSON form RPC nodes return inside
 * `{"InstructionError":[index, <this>]}`: a plain string variant or `{ Custom: n }`.
 */
export type InstructionErrorJson =
  | 'GenericError'
  | 'InvalidArgument'
  | 'InvalidInstructionData'
  | 'InvalidAccountData'
  | 'AccountDataTooSmall'
  | 'InsufficientFunds'
  | 'IncorrectProgramId'
  | 'MissingRequiredSignature'
  | 'AccountAlreadyInitialized'
  | 'UninitializedAccount'
  | 'NotEnoughAccountKeys'
  | 'AccountBorrowFailed'
  | 'InvalidSeeds'
  | 'ExternalAccountDataModified'
  | 'ExternalAccountLamportSpend'
  | 'ReadonlyDataModified'
  | 'ReadonlyLamportChange'
  | 'UnbalancedInstruction'
  | 'ModifiedProgramId'
  | 'ExecutableModified'
  | 'InvalidAccountOwner'
  | 'ArithmeticOverflow'
  | 'IncorrectAuthority'
  | 'PrivilegeEscalation'
  | 'UnsupportedProgramId'
  | 'InvalidRealloc'
  | 'ComputationalBudgetExceeded'
  | 'MissingAccount'
  | 'AccountNotExecutable'
  | 'ProgramFailedToComplete'
  | 'ReentrancyNotAllowed'
  | 'CallDepth'
  | 'AccountDataSizeChanged'
  | 'ExecutableLamportChange'
  | 'ExecutableDataModified'
  | { Custom: number };

export class ProgramError extends Error {
  override readonly name = 'ProgramError';
  constructor(
    readonly error: InstructionErrorJson,
    /** Extra detail for the log line (`Program log: …`) before the failure; never part of the error value. */
    message?: string,
  ) {
    super(
      message ?? (typeof error === 'string' ? error : `custom program error: 0x${error.Custom.toString(16)}`),
    );
  }
}

/** Text a validator prints after `Program <id> failed: `, e.g. `custom program error: 0x1770`. */
export function describeInstructionError(error: InstructionErrorJson): string {
  if (typeof error !== 'string') return `custom program error: 0x${error.Custom.toString(16)}`;
  return INSTRUCTION_ERROR_TEXT[error] ?? error;
}

// The messages solana-program's InstructionError Display prints, for the variants we raise.
const INSTRUCTION_ERROR_TEXT: Partial<Record<Exclude<InstructionErrorJson, { Custom: number }>, string>> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  NotEnoughAccountKeys: 'insufficient account keys for instruction',
  InvalidSeeds: 'Provided seeds do not result in a valid address',
  ExternalAccountDataModified: 'instruction modified data of an account it does not own',
  ExternalAccountLamportSpend: 'instruction spent from the balance of an account it does not own',
  ReadonlyDataModified: 'instruction modified data of a read-only account',
  ReadonlyLamportChange: 'instruction changed the balance of a read-only account',
  UnbalancedInstruction: 'sum of account balances before and after instruction do not match',
  ModifiedProgramId: 'instruction illegally modified the program id of an account',
  InvalidAccountOwner: 'Invalid account owner',
  ArithmeticOverflow: 'Program arithmetic overflowed',
  IncorrectAuthority: 'Incorrect authority provided',
  PrivilegeEscalation: 'Cross-program invocation with unauthorized signer or writable account',
  UnsupportedProgramId: 'Unsupported program id',
  InvalidRealloc: 'Failed to reallocate account data',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
  MissingAccount: 'An account required by the instruction is missing',
  AccountNotExecutable: 'instruction expected an executable account',
  ProgramFailedToComplete: 'Program failed to complete',
  ReentrancyNotAllowed: 'Cross-program invocation reentrancy not allowed for this instruction',
  CallDepth: 'Cross-program invocation call depth too deep',
  AccountDataSizeChanged: "program other than the account's owner changed the size of the account data",
  ExecutableLamportChange: 'instruction changed the balance of an executable account',
  ExecutableDataModified: 'instruction changed executable accounts data',
};
