/**
 * SNS name accounts as the auction program sees them: derivation of a `.sol` domain's account and
 * the 96-byte NameRecordHeader (parent ‖ owner ‖ class), exactly as mainnet lays them out. The class
 * needs no check: it is part of the derivation seeds (zeros for `.sol` domains).
 */
import { type Address, addressFromBytes, addressToBytes } from '../core/address.js';
import { type DomainName, domainLabel } from '../core/domain-name.js';
import { NAME_PROGRAM_ID, SOL_TLD_ACCOUNT } from '../core/program/ids.js';
import type { InstructionAccount, InvokeContext } from '../localnet/runtime/program-abi.js';

const HASH_PREFIX = new TextEncoder().encode('SPL Name Service');
const NO_CLASS = new Uint8Array(32);
const SOL_TLD_BYTES = addressToBytes(SOL_TLD_ACCOUNT);
export const NAME_HEADER_LENGTH = 96;

/** PDA of [sha256("SPL Name Service" + label), class = zeros, parent = .sol TLD] under the name program. */
export function domainNameAccount(ctx: InvokeContext, name: DomainName): Address {
  const hashed = ctx.syscalls.sha256(HASH_PREFIX, new TextEncoder().encode(domainLabel(name)));
  return ctx.syscalls.findProgramAddress([hashed, NO_CLASS, SOL_TLD_BYTES], NAME_PROGRAM_ID)[0];
}

export interface NameHeader {
  readonly parent: Address;
  readonly owner: Address;
}

/** The header of an initialized name account, or null when the account is not one. */
export function readNameHeader(account: InstructionAccount): NameHeader | null {
  if (account.owner !== NAME_PROGRAM_ID || account.data.length < NAME_HEADER_LENGTH) return null;
  const data = account.data;
  return {
    parent: addressFromBytes(data.subarray(0, 32)),
    owner: addressFromBytes(data.subarray(32, 64)),
  };
}
