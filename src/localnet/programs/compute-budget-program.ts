import type { Address } from '../../core/address.js';
import { type ProgramEntrypoint, ProgramError } from '../runtime/program-abi.js';

export const COMPUTE_BUDGET_PROGRAM_ID = 'ComputeBudget111111111111111111111111111111' as Address;

export type ComputeBudgetInstruction =
  | { kind: 'requestHeapFrame'; bytes: number }
  | { kind: 'setComputeUnitLimit'; units: number }
  | { kind: 'setComputeUnitPrice'; microLamports: bigint }
  | { kind: 'setLoadedAccountsDataSizeLimit'; bytes: number };

/** Borsh enum with a u8 tag; null when the data is not a valid ComputeBudget instruction. */
export function decodeComputeBudgetInstruction(data: Uint8Array): ComputeBudgetInstruction | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (data[0]) {
    case 1:
      return data.length === 5 ? { kind: 'requestHeapFrame', bytes: view.getUint32(1, true) } : null;
    case 2:
      return data.length === 5 ? { kind: 'setComputeUnitLimit', units: view.getUint32(1, true) } : null;
    case 3:
      return data.length === 9
        ? { kind: 'setComputeUnitPrice', microLamports: view.getBigUint64(1, true) }
        : null;
    case 4:
      return data.length === 5
        ? { kind: 'setLoadedAccountsDataSizeLimit', bytes: view.getUint32(1, true) }
        : null;
    default:
      return null;
  }
}

/** The runtime applies compute budget requests before execution; the instruction itself does nothing. */
export const computeBudgetProgram: ProgramEntrypoint = (ctx) => {
  if (!decodeComputeBudgetInstruction(ctx.data)) throw new ProgramError('InvalidInstructionData');
};
