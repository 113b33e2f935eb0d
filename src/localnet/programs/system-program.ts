/**
 * The System program's CreateAccount, Assign, Transfer and Allocate, with the real instruction
 * encodings (u32 tag, bincode fields) and the real checks, log lines and `SystemError` codes.
 */
import { type Address, addressFromBytes } from '../../core/address.js';
import { type InstructionAccount, type ProgramEntrypoint, ProgramError } from '../runtime/program-abi.js';
import { MAX_ACCOUNT_DATA_LENGTH } from '../runtime/transaction-account.js';
import { decodeInstructionData, requireAccounts } from './instruction-decoding.js';

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111' as Address;

/** `SystemError` custom codes. */
const ACCOUNT_ALREADY_IN_USE = { Custom: 0 };
const RESULT_WITH_NEGATIVE_LAMPORTS = { Custom: 1 };
const INVALID_ACCOUNT_DATA_LENGTH = { Custom: 3 };

type SystemInstruction =
  | { kind: 'createAccount'; lamports: bigint; space: bigint; owner: Address }
  | { kind: 'assign'; owner: Address }
  | { kind: 'transfer'; lamports: bigint }
  | { kind: 'allocate'; space: bigint };

function decode(data: Uint8Array): SystemInstruction {
  return decodeInstructionData(data, (r) => {
    switch (r.u32()) {
      case 0:
        return {
          kind: 'createAccount',
          lamports: r.u64(),
          space: r.u64(),
          owner: addressFromBytes(r.fixed(32)),
        };
      case 1:
        return { kind: 'assign', owner: addressFromBytes(r.fixed(32)) };
      case 2:
        return { kind: 'transfer', lamports: r.u64() };
      case 8:
        return { kind: 'allocate', space: r.u64() };
      default:
        throw new ProgramError('InvalidInstructionData');
    }
  });
}

/** How the System program prints an address with `{:?}`. */
const debugAddress = (key: Address) => `Address { address: ${key}, base: None }`;

export const systemProgram: ProgramEntrypoint = (ctx) => {
  const ix = decode(ctx.data);
  switch (ix.kind) {
    case 'createAccount': {
      const [from, to] = requireAccounts(ctx.accounts, 2) as [InstructionAccount, InstructionAccount];
      if (to.lamports > 0n) {
        throw new ProgramError(
          ACCOUNT_ALREADY_IN_USE,
          `Create Account: account ${debugAddress(to.key)} already in use`,
        );
      }
      allocate(to, ix.space);
      assign(to, ix.owner);
      transfer(from, to, ix.lamports);
      return;
    }
    case 'assign':
      assign(requireAccounts(ctx.accounts, 1)[0] as InstructionAccount, ix.owner);
      return;
    case 'transfer': {
      const [from, to] = requireAccounts(ctx.accounts, 2) as [InstructionAccount, InstructionAccount];
      transfer(from, to, ix.lamports);
      return;
    }
    case 'allocate':
      allocate(requireAccounts(ctx.accounts, 1)[0] as InstructionAccount, ix.space);
      return;
  }
};

function allocate(account: InstructionAccount, space: bigint): void {
  if (!account.isSigner) {
    throw new ProgramError(
      'MissingRequiredSignature',
      `Allocate: 'to' account ${debugAddress(account.key)} must sign`,
    );
  }
  if (account.data.length > 0 || account.owner !== SYSTEM_PROGRAM_ID) {
    throw new ProgramError(
      ACCOUNT_ALREADY_IN_USE,
      `Allocate: account ${debugAddress(account.key)} already in use`,
    );
  }
  if (space > BigInt(MAX_ACCOUNT_DATA_LENGTH)) {
    throw new ProgramError(
      INVALID_ACCOUNT_DATA_LENGTH,
      `Allocate: requested ${space}, max allowed ${MAX_ACCOUNT_DATA_LENGTH}`,
    );
  }
  account.data = new Uint8Array(Number(space));
}

function assign(account: InstructionAccount, owner: Address): void {
  if (account.owner === owner) return;
  if (!account.isSigner) {
    throw new ProgramError(
      'MissingRequiredSignature',
      `Assign: account ${debugAddress(account.key)} must sign`,
    );
  }
  account.owner = owner;
}

function transfer(from: InstructionAccount, to: InstructionAccount, lamports: bigint): void {
  if (!from.isSigner) {
    throw new ProgramError('MissingRequiredSignature', `Transfer: \`from\` account ${from.key} must sign`);
  }
  if (from.data.length > 0) throw new ProgramError('InvalidArgument', 'Transfer: `from` must not carry data');
  if (lamports > from.lamports) {
    throw new ProgramError(
      RESULT_WITH_NEGATIVE_LAMPORTS,
      `Transfer: insufficient lamports ${from.lamports}, need ${lamports}`,
    );
  }
  from.lamports -= lamports;
  if (to.lamports + lamports > 0xffff_ffff_ffff_ffffn) throw new ProgramError('ArithmeticOverflow');
  to.lamports += lamports;
}
