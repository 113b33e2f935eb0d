/**
 * The SPL Name Service (`namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX`), following
 * `name-service/program/src/processor.rs`: Create, Update, Transfer, Delete and Realloc with the
 * same account lists, checks, `msg!` lines and errors.
 */
import { type Address, addressToBytes, isZeroAddressBytes } from '../../core/address.js';
import { NAME_RECORD_HEADER_LEN } from '../../core/sns/name-record.js';
import {
  type InstructionAccount,
  type InvokeContext,
  type ProgramEntrypoint,
  ProgramError,
} from '../runtime/program-abi.js';
import { decodeInstructionData, requireAccounts } from './instruction-decoding.js';

type NameInstruction =
  | { kind: 'create'; hashedName: Uint8Array; lamports: bigint; space: number }
  | { kind: 'update'; offset: number; data: Uint8Array }
  | { kind: 'transfer'; newOwner: Uint8Array }
  | { kind: 'delete' }
  | { kind: 'realloc'; space: number };

function decode(data: Uint8Array): NameInstruction {
  return decodeInstructionData(data, (r) => {
    let ix: NameInstruction;
    switch (r.u8()) {
      case 0:
        ix = { kind: 'create', hashedName: r.bytes(), lamports: r.u64(), space: r.u32() };
        break;
      case 1:
        ix = { kind: 'update', offset: r.u32(), data: r.bytes() };
        break;
      case 2:
        ix = { kind: 'transfer', newOwner: r.fixed(32) };
        break;
      case 3:
        ix = { kind: 'delete' };
        break;
      case 4:
        ix = { kind: 'realloc', space: r.u32() };
        break;
      default:
        throw new ProgramError('InvalidInstructionData');
    }
    r.expectEnd();
    return ix;
  });
}

interface Header {
  readonly parent: Uint8Array;
  readonly owner: Uint8Array;
  readonly class: Uint8Array;
}

function readHeader(ctx: InvokeContext, account: InstructionAccount): Header {
  const data = account.data;
  if (data.length < NAME_RECORD_HEADER_LEN) {
    ctx.log('Failed to deserialize name record');
    throw new ProgramError('InvalidAccountData');
  }
  return { parent: data.subarray(0, 32), owner: data.subarray(32, 64), class: data.subarray(64, 96) };
}

const sameKey = (bytes: Uint8Array, key: Address) => Buffer.compare(bytes, addressToBytes(key)) === 0;

function invalidArgument(message: string): ProgramError {
  return new ProgramError('InvalidArgument', message);
}

export const nameServiceProgram: ProgramEntrypoint = (ctx) => {
  ctx.log('Beginning processing');
  const ix = decode(ctx.data);
  ctx.log('Instruction unpacked');
  switch (ix.kind) {
    case 'create':
      ctx.log('Instruction: Create');
      return create(ctx, ix.hashedName, ix.lamports, ix.space);
    case 'update':
      ctx.log('Instruction: Update Data');
      return update(ctx, ix.offset, ix.data);
    case 'transfer':
      ctx.log('Instruction: Transfer Ownership');
      return transfer(ctx, ix.newOwner);
    case 'delete':
      ctx.log('Instruction: Delete Name');
      return remove(ctx);
    case 'realloc':
      ctx.log('Instruction: Realloc Name Record');
      return realloc(ctx, ix.space);
  }
};

function create(ctx: InvokeContext, hashed: Uint8Array, lamports: bigint, space: number): void {
  const [systemProgram, payer, name, nameOwner, nameClass, parent] = requireAccounts(ctx.accounts, 6);
  const parentOwner = ctx.accounts[6];
  const seeds = [hashed, addressToBytes(nameClass.key), addressToBytes(parent.key)];
  const seedChunks = chunk32(seeds);
  const [expected, bump] = ctx.syscalls.findProgramAddress(seedChunks, ctx.programId);
  if (expected !== name.key) throw invalidArgument('The given name account is incorrect.');
  if (name.data.length > 0 && !isZeroAddressBytes(readHeader(ctx, name).owner)) {
    throw invalidArgument('The given name account already exists.');
  }
  if (!isZeroAddressBytes(addressToBytes(nameClass.key)) && !nameClass.isSigner) {
    throw invalidArgument('The given name class is not a signer.');
  }
  if (!isZeroAddressBytes(addressToBytes(parent.key))) {
    if (!parentOwner?.isSigner) throw invalidArgument('The given parent name account owner is not a signer.');
    if (!sameKey(readHeader(ctx, parent).owner, parentOwner.key)) {
      throw invalidArgument('The given parent name account owner is not correct.');
    }
  }
  if (isZeroAddressBytes(addressToBytes(nameOwner.key))) {
    throw invalidArgument('The owner cannot be `Pubkey::default()`.');
  }
  if (name.data.length === 0) {
    const signer = [...seedChunks, Uint8Array.of(bump)];
    const system = systemProgram.key;
    ctx.invoke(systemInstruction(system, 2, u64(lamports), [payer.key, true, true], [name.key, false, true]));
    const allocateArgs = u64(BigInt(NAME_RECORD_HEADER_LEN + space));
    ctx.invoke(systemInstruction(system, 8, allocateArgs, [name.key, true, true]), [signer]);
    ctx.invoke(systemInstruction(system, 1, addressToBytes(ctx.programId), [name.key, true, true]), [signer]);
  }
  const data = name.data;
  data.set(addressToBytes(parent.key), 0);
  data.set(addressToBytes(nameOwner.key), 32);
  data.set(addressToBytes(nameClass.key), 64);
}

function update(ctx: InvokeContext, offset: number, bytes: Uint8Array): void {
  const [name, signer] = requireAccounts(ctx.accounts, 2);
  const header = readHeader(ctx, name);
  const isParentOwner = parentOwnerSigns(ctx, header, signer, ctx.accounts[2]);
  if (!signer.isSigner) throw invalidArgument('The given name class or owner is not a signer.');
  const hasClass = !isZeroAddressBytes(header.class);
  if (hasClass && !sameKey(header.class, signer.key)) {
    throw invalidArgument('The given name class account is incorrect.');
  }
  if (!hasClass && !sameKey(header.owner, signer.key) && !isParentOwner) {
    throw invalidArgument('The given name owner account is incorrect.');
  }
  writeData(name, bytes, NAME_RECORD_HEADER_LEN + offset);
}

function transfer(ctx: InvokeContext, newOwner: Uint8Array): void {
  const [name, owner] = requireAccounts(ctx.accounts, 2);
  const nameClass = ctx.accounts[2];
  const header = readHeader(ctx, name);
  const isParentOwner = parentOwnerSigns(ctx, header, owner, ctx.accounts[3]);
  if (!owner.isSigner || (!sameKey(header.owner, owner.key) && !isParentOwner)) {
    throw invalidArgument('The given name owner is incorrect or not a signer.');
  }
  if (
    !isZeroAddressBytes(header.class) &&
    (!nameClass || !sameKey(header.class, nameClass.key) || !nameClass.isSigner)
  ) {
    throw invalidArgument('The given name class account is incorrect or not a signer.');
  }
  name.data.set(newOwner, 32);
}

function remove(ctx: InvokeContext): void {
  const [name, owner, refundTarget] = requireAccounts(ctx.accounts, 3);
  const header = readHeader(ctx, name);
  if (!owner.isSigner || !sameKey(header.owner, owner.key)) {
    throw invalidArgument('The given name owner is incorrect or not a signer.');
  }
  name.data.fill(0);
  const lamports = name.lamports;
  name.lamports = 0n;
  refundTarget.lamports += lamports;
}

function realloc(ctx: InvokeContext, space: number): void {
  const [systemProgram, payer, name, owner] = requireAccounts(ctx.accounts, 4);
  const header = readHeader(ctx, name);
  if (!owner.isSigner || !sameKey(header.owner, owner.key)) {
    throw invalidArgument('The given name owner is incorrect or not a signer.');
  }
  const newSpace = NAME_RECORD_HEADER_LEN + space;
  const required = ctx.syscalls.minimumBalance(newSpace);
  if (name.lamports < required) {
    const missing = required - name.lamports;
    ctx.invoke(
      systemInstruction(systemProgram.key, 2, u64(missing), [payer.key, true, true], [name.key, false, true]),
    );
  } else if (name.lamports > required) {
    const excess = name.lamports - required;
    name.lamports -= excess;
    payer.lamports += excess;
  }
  const resized = new Uint8Array(newSpace);
  resized.set(name.data.subarray(0, newSpace));
  name.data = resized;
}

/** Whether the optional parent account's owner is `signer`; a wrong parent account is rejected. */
function parentOwnerSigns(
  ctx: InvokeContext,
  header: Header,
  signer: InstructionAccount,
  parent: InstructionAccount | undefined,
): boolean {
  if (!parent) return false;
  if (!sameKey(header.parent, parent.key)) throw invalidArgument('Invalid parent name account');
  return sameKey(readHeader(ctx, parent).owner, signer.key);
}

/** `write_data`: an out-of-range write panics on-chain. */
function writeData(account: InstructionAccount, bytes: Uint8Array, offset: number): void {
  const data = account.data;
  if (offset + bytes.length > data.length) {
    throw new RangeError(
      `range end index ${offset + bytes.length} out of range for slice of length ${data.length}`,
    );
  }
  data.set(bytes, offset);
}

function chunk32(seeds: Uint8Array[]): Uint8Array[] {
  const all = Buffer.concat(seeds);
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += 32) out.push(new Uint8Array(all.subarray(i, i + 32)));
  return out;
}

function u64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

function systemInstruction(
  programId: Address,
  tag: number,
  args: Uint8Array,
  ...accounts: [Address, boolean, boolean][]
) {
  const data = new Uint8Array(4 + args.length);
  new DataView(data.buffer).setUint32(0, tag, true);
  data.set(args, 4);
  return {
    programId,
    accounts: accounts.map(([key, isSigner, isWritable]) => ({ key, isSigner, isWritable })),
    data,
  };
}
