import type { Address } from '../../core/address.js';
import { AUCTION_PROGRAM_ID, NAME_PROGRAM_ID } from '../../core/program/ids.js';
import { auctionProgram } from '../../program/index.js';
import type { ProgramEntry, ProgramRegistry } from '../runtime/invocation.js';
import { COMPUTE_BUDGET_PROGRAM_ID, computeBudgetProgram } from './compute-budget-program.js';
import { nameServiceProgram } from './name-service-program.js';
import { SYSTEM_PROGRAM_ID, systemProgram } from './system-program.js';

/** Every program the localnet runs, by program id. SNS and the auction program behave as SBF programs. */
export function builtinPrograms(): ProgramRegistry {
  const entries: ProgramEntry[] = [
    { id: SYSTEM_PROGRAM_ID, entrypoint: systemProgram, builtin: true },
    { id: COMPUTE_BUDGET_PROGRAM_ID, entrypoint: computeBudgetProgram, builtin: true },
    { id: NAME_PROGRAM_ID, entrypoint: nameServiceProgram, builtin: false },
    { id: AUCTION_PROGRAM_ID, entrypoint: auctionProgram, builtin: false },
  ];
  return new Map<Address, ProgramEntry>(entries.map((e) => [e.id, e]));
}
