import { BorshError, BorshReader } from '../../core/codec/borsh.js';
import { type InstructionAccount, ProgramError } from '../runtime/program-abi.js';

/** Decodes instruction data; malformed data is `InvalidInstructionData`, as programs report it. */
export function decodeInstructionData<T>(data: Uint8Array, read: (r: BorshReader) => T): T {
  try {
    return read(new BorshReader(data));
  } catch (e) {
    if (e instanceof BorshError) throw new ProgramError('InvalidInstructionData');
    throw e;
  }
}

type Accounts<N extends number, R extends InstructionAccount[] = []> = R['length'] extends N
  ? [...R, ...(InstructionAccount | undefined)[]]
  : Accounts<N, [...R, InstructionAccount]>;

/** The instruction's accounts, requiring at least `count` of them (`NotEnoughAccountKeys`). */
export function requireAccounts<N extends number>(
  accounts: readonly InstructionAccount[],
  count: N,
): Accounts<N> {
  if (accounts.length < count) throw new ProgramError('NotEnoughAccountKeys');
  return accounts as unknown as Accounts<N>;
}
