/**
 * Cross-program invocations the auction program makes: System (create the PDAs, move bids into
 * escrow) and SPL Name Service (move domain ownership in and out of escrow).
 */
import { type Address, addressToBytes } from '../core/address.js';
import { NAME_PROGRAM_ID, SYSTEM_PROGRAM_ID } from '../core/program/ids.js';
import type { InvokeContext } from '../localnet/runtime/program-abi.js';

type SignerSeeds = readonly (readonly Uint8Array[])[];

function systemData(tag: number, size: number): [Uint8Array, DataView] {
  const data = new Uint8Array(size);
  const view = new DataView(data.buffer);
  view.setUint32(0, tag, true);
  return [data, view];
}

/** System CreateAccount (tag 0): funds, allocates and assigns `newAccount` (a PDA signing with its seeds). */
export function createAccount(
  ctx: InvokeContext,
  p: { payer: Address; newAccount: Address; lamports: bigint; space: number; owner: Address },
  signerSeeds: SignerSeeds,
): void {
  const [data, view] = systemData(0, 52);
  view.setBigUint64(4, p.lamports, true);
  view.setBigUint64(12, BigInt(p.space), true);
  data.set(addressToBytes(p.owner), 20);
  ctx.invoke(
    {
      programId: SYSTEM_PROGRAM_ID,
      accounts: [
        { key: p.payer, isSigner: true, isWritable: true },
        { key: p.newAccount, isSigner: true, isWritable: true },
      ],
      data,
    },
    signerSeeds,
  );
}

/** System Transfer (tag 2) from a signing system account. */
export function transferLamports(ctx: InvokeContext, from: Address, to: Address, lamports: bigint): void {
  const [data, view] = systemData(2, 12);
  view.setBigUint64(4, lamports, true);
  ctx.invoke({
    programId: SYSTEM_PROGRAM_ID,
    accounts: [
      { key: from, isSigner: true, isWritable: true },
      { key: to, isWritable: true, isSigner: false },
    ],
    data,
  });
}

/** System Allocate (tag 8) of a PDA that signs with its seeds. */
export function allocate(
  ctx: InvokeContext,
  account: Address,
  space: number,
  signerSeeds: SignerSeeds,
): void {
  const [data, view] = systemData(8, 12);
  view.setBigUint64(4, BigInt(space), true);
  ctx.invoke(
    { programId: SYSTEM_PROGRAM_ID, accounts: [{ key: account, isSigner: true, isWritable: true }], data },
    signerSeeds,
  );
}

/** System Assign (tag 1) of a PDA that signs with its seeds. */
export function assign(ctx: InvokeContext, account: Address, owner: Address, signerSeeds: SignerSeeds): void {
  const [data] = systemData(1, 36);
  data.set(addressToBytes(owner), 4);
  ctx.invoke(
    { programId: SYSTEM_PROGRAM_ID, accounts: [{ key: account, isSigner: true, isWritable: true }], data },
    signerSeeds,
  );
}

/** SNS Transfer (tag 2, new owner): the current owner signs; a PDA owner signs with its seeds. */
export function transferNameOwnership(
  ctx: InvokeContext,
  p: { nameAccount: Address; currentOwner: Address; newOwner: Address },
  signerSeeds: SignerSeeds = [],
): void {
  const data = new Uint8Array(33);
  data[0] = 2;
  data.set(addressToBytes(p.newOwner), 1);
  ctx.invoke(
    {
      programId: NAME_PROGRAM_ID,
      accounts: [
        { key: p.nameAccount, isSigner: false, isWritable: true },
        { key: p.currentOwner, isSigner: true, isWritable: false },
      ],
      data,
    },
    signerSeeds,
  );
}
