import type { Address } from '../../core/address.js';
import { InstructionAccountView } from './instruction-account-view.js';
import { LogCollector } from './log-collector.js';
import {
  type Clock,
  type CpiInstruction,
  describeInstructionError,
  type InstructionErrorJson,
  type InvokeContext,
  type ProgramEntrypoint,
  ProgramError,
  type Syscalls,
} from './program-abi.js';
import { type AccountSnapshot, type TransactionAccount, verifyAccountChange } from './transaction-account.js';

export interface ProgramEntry {
  readonly id: Address;
  readonly entrypoint: ProgramEntrypoint;
  /** Native builtins (System, ComputeBudget) log no "consumed" line and cost a fixed 150 units. */
  readonly builtin: boolean;
}

export type ProgramRegistry = ReadonlyMap<Address, ProgramEntry>;

export interface InnerInstruction {
  readonly programIdIndex: number;
  readonly accounts: readonly number[];
  readonly data: Uint8Array;
  readonly stackHeight: number;
}

/** A failed instruction; its log lines are already written. */
export class InstructionFailure extends Error {
  constructor(readonly error: InstructionErrorJson) {
    super(describeInstructionError(error));
  }
}

interface FrameAccount {
  readonly state: TransactionAccount;
  readonly isSigner: boolean;
  readonly isWritable: boolean;
  /** What the program sees; duplicates of a key share it. */
  readonly view: InstructionAccountView;
  snapshot: AccountSnapshot;
}

interface Frame {
  readonly program: ProgramEntry;
  readonly accounts: Map<Address, FrameAccount>;
  aborted: InstructionErrorJson | null;
}

/** Agave's `MAX_INSTRUCTION_STACK_DEPTH`. */
const MAX_STACK_DEPTH = 5;
const BUILTIN_UNITS = 150;
const LOG_UNITS = 100;

export interface InvocationEnv {
  readonly programs: ProgramRegistry;
  readonly syscalls: Syscalls;
  readonly clock: Clock;
}

/**
 * Runs one transaction's instructions: top-level invocations, CPIs with Solana's privilege rules,
 * the account checks after each program, logs, inner instructions and a deterministic compute
 * meter (programs here are TypeScript, so units are an estimate: per invocation, account, byte and log).
 */
export class InvocationRunner {
  readonly logs = new LogCollector();
  readonly innerInstructions = new Map<number, InnerInstruction[]>();
  private readonly stack: Frame[] = [];
  private readonly keyIndex = new Map<Address, number>();
  private remaining: number;
  private topLevelIndex = 0;

  constructor(
    private readonly env: InvocationEnv,
    private readonly accounts: readonly TransactionAccount[],
    readonly unitLimit: number,
  ) {
    this.remaining = unitLimit;
    for (const [i, account] of accounts.entries()) this.keyIndex.set(account.key, i);
  }

  get unitsConsumed(): number {
    return this.unitLimit - this.remaining;
  }

  /** Runs a top-level instruction; returns its error, or null on success. */
  runInstruction(
    index: number,
    program: ProgramEntry,
    accountIndexes: readonly number[],
    data: Uint8Array,
    isSigner: readonly boolean[],
    isWritable: readonly boolean[],
  ): InstructionErrorJson | null {
    this.topLevelIndex = index;
    const metas = accountIndexes.map((i) => ({
      state: this.accounts[i] as TransactionAccount,
      isSigner: isSigner[i] ?? false,
      isWritable: isWritable[i] ?? false,
    }));
    try {
      this.runFrame(program, metas, data);
      return null;
    } catch (e) {
      if (e instanceof InstructionFailure) return e.error;
      throw e;
    }
  }

  private runFrame(
    program: ProgramEntry,
    metas: readonly { state: TransactionAccount; isSigner: boolean; isWritable: boolean }[],
    data: Uint8Array,
  ): void {
    const depth = this.stack.length + 1;
    this.logs.push(`Program ${program.id} invoke [${depth}]`);
    const frame: Frame = { program, accounts: new Map(), aborted: null };
    for (const { state } of metas) {
      if (frame.accounts.has(state.key)) continue;
      // A key listed twice gets the union of its privileges, as in Agave's instruction context.
      const same = metas.filter((m) => m.state === state);
      const isSigner = same.some((m) => m.isSigner);
      const isWritable = same.some((m) => m.isWritable);
      const view = new InstructionAccountView(state, isSigner, isWritable);
      frame.accounts.set(state.key, { state, isSigner, isWritable, view, snapshot: state.snapshot() });
    }
    const available = this.remaining;
    const cost = program.builtin ? BUILTIN_UNITS : 1_000 + 100 * metas.length + data.length;
    let preSum = 0n;
    for (const a of frame.accounts.values()) preSum += a.state.lamports;

    let error: InstructionErrorJson | null = null;
    if (cost > available) {
      error = 'ComputationalBudgetExceeded';
      this.remaining = 0;
    } else {
      this.remaining -= cost;
      this.stack.push(frame);
      try {
        const accounts = metas.map((m) => (frame.accounts.get(m.state.key) as FrameAccount).view);
        program.entrypoint(this.context(frame, accounts, data));
      } catch (e) {
        error = this.errorFrom(e, program);
      } finally {
        this.stack.pop();
      }
      error ??= frame.aborted ?? verifyFrame(frame, preSum);
      if (this.remaining < 0) {
        error ??= 'ComputationalBudgetExceeded';
        this.remaining = 0;
      }
    }
    if (!program.builtin) {
      this.logs.push(
        `Program ${program.id} consumed ${available - this.remaining} of ${available} compute units`,
      );
    }
    if (error) {
      this.logs.push(`Program ${program.id} failed: ${describeInstructionError(error)}`);
      throw new InstructionFailure(error);
    }
    this.logs.push(`Program ${program.id} success`);
  }

  private context(frame: Frame, accounts: InstructionAccountView[], data: Uint8Array): InvokeContext {
    return {
      programId: frame.program.id,
      accounts,
      data,
      clock: this.env.clock,
      syscalls: this.env.syscalls,
      log: (message) => {
        this.remaining -= LOG_UNITS;
        this.logs.push(`Program log: ${message}`);
      },
      logData: (...chunks) => {
        this.remaining -= LOG_UNITS;
        this.logs.push(`Program data: ${chunks.map((c) => Buffer.from(c).toString('base64')).join(' ')}`);
      },
      invoke: (instruction, signerSeeds) => {
        try {
          this.invoke(frame, instruction, signerSeeds ?? []);
        } catch (e) {
          const error = e instanceof InstructionFailure ? e.error : this.errorFrom(e, frame.program);
          // A failed CPI fails the whole transaction, even if the caller catches the error.
          for (const f of this.stack) f.aborted ??= error;
          throw e instanceof InstructionFailure ? e : new InstructionFailure(error);
        }
      },
    };
  }

  private invoke(caller: Frame, ix: CpiInstruction, signerSeeds: readonly (readonly Uint8Array[])[]): void {
    const depth = this.stack.length + 1;
    if (depth > MAX_STACK_DEPTH) throw new InstructionFailure('CallDepth');
    const callerAt = this.stack.findIndex((f) => f.program.id === ix.programId);
    if (callerAt >= 0 && callerAt !== this.stack.length - 1)
      throw new InstructionFailure('ReentrancyNotAllowed');
    const callerError = verifyFrameAccounts(caller);
    if (callerError) throw new InstructionFailure(callerError);

    const pdaSigners = new Set(
      signerSeeds.map((seeds) => this.env.syscalls.createProgramAddress(seeds, caller.program.id)),
    );
    const metas = ix.accounts.map((meta) => {
      const callerAccount = caller.accounts.get(meta.key);
      if (!callerAccount)
        return this.fail(`Instruction references an unknown account ${meta.key}`, 'MissingAccount');
      if (meta.isWritable && !callerAccount.isWritable) {
        return this.fail(`${meta.key}'s writable privilege escalated`, 'PrivilegeEscalation');
      }
      if (meta.isSigner && !callerAccount.isSigner && !pdaSigners.has(meta.key)) {
        return this.fail(`${meta.key}'s signer privilege escalated`, 'PrivilegeEscalation');
      }
      return { state: callerAccount.state, isSigner: meta.isSigner, isWritable: meta.isWritable };
    });
    const programAccount = caller.accounts.get(ix.programId);
    if (!programAccount) this.fail(`Unknown program ${ix.programId}`, 'MissingAccount');
    const program = this.env.programs.get(ix.programId);
    if (!program || !programAccount.state.executable) {
      this.fail(`Account ${ix.programId} is not executable`, 'AccountNotExecutable');
    }

    const inner = this.innerInstructions.get(this.topLevelIndex) ?? [];
    this.innerInstructions.set(this.topLevelIndex, inner);
    inner.push({
      programIdIndex: this.keyIndex.get(ix.programId) ?? 0,
      accounts: ix.accounts.map((m) => this.keyIndex.get(m.key) ?? 0),
      data: ix.data,
      stackHeight: depth,
    });
    this.runFrame(program, metas, ix.data);
    // What the callee changed was checked against the callee; the caller's checks start from here.
    for (const { state } of metas) {
      const callerAccount = caller.accounts.get(state.key);
      if (callerAccount) callerAccount.snapshot = state.snapshot();
    }
  }

  private fail(line: string, error: InstructionErrorJson): never {
    this.logs.push(line);
    throw new InstructionFailure(error);
  }

  private errorFrom(e: unknown, program: ProgramEntry): InstructionErrorJson {
    if (e instanceof InstructionFailure) return e.error;
    const prefix = program.builtin ? '' : 'Program log: ';
    if (e instanceof ProgramError) {
      const plain = typeof e.error === 'string' ? e.error : describeInstructionError(e.error);
      if (e.message !== plain) this.logs.push(`${prefix}${e.message}`);
      return e.error;
    }
    // Anything else is a bug in the program: on-chain that is a panic.
    this.logs.push(`${prefix}panicked at '${e instanceof Error ? e.message : String(e)}'`);
    return 'ProgramFailedToComplete';
  }
}

function verifyFrameAccounts(frame: Frame): InstructionErrorJson | null {
  for (const a of frame.accounts.values()) {
    const error = verifyAccountChange(a.snapshot, a.state, frame.program.id, a.isWritable);
    if (error) return error;
  }
  return null;
}

function verifyFrame(frame: Frame, preSum: bigint): InstructionErrorJson | null {
  const error = verifyFrameAccounts(frame);
  if (error) return error;
  let postSum = 0n;
  for (const a of frame.accounts.values()) postSum += a.state.lamports;
  return postSum === preSum ? null : 'UnbalancedInstruction';
}
