import {
  AddressLookupTableAccount,
  Keypair,
  type PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readWireTransaction } from '../../src/localnet/runtime/wire-transaction.js';

const keys = Array.from({ length: 6 }, () => Keypair.generate());
const programs = Array.from({ length: 3 }, () => Keypair.generate().publicKey);
const blockhash = bs58.encode(new Uint8Array(32).fill(7));

const instruction = fc.record({
  program: fc.nat({ max: programs.length - 1 }),
  accounts: fc.array(
    fc.record({ key: fc.nat({ max: keys.length - 1 }), isSigner: fc.boolean(), isWritable: fc.boolean() }),
    { maxLength: 5 },
  ),
  data: fc.uint8Array({ maxLength: 300 }),
});

interface ToyInstruction {
  program: number;
  accounts: { key: number; isSigner: boolean; isWritable: boolean }[];
  data: Uint8Array;
}

function build(ixs: ToyInstruction[], v0: boolean, lookup: boolean) {
  const instructions = ixs.map(
    (ix) =>
      new TransactionInstruction({
        programId: programs[ix.program] as PublicKey,
        keys: ix.accounts.map((a) => ({
          pubkey: (keys[a.key] as Keypair).publicKey,
          isSigner: a.isSigner,
          isWritable: a.isWritable,
        })),
        data: Buffer.from(ix.data),
      }),
  );
  const payer = keys[0] as Keypair;
  if (!v0) {
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      ...instructions,
    );
    return tx.serialize({ requireAllSignatures: false, verifySignatures: false });
  }
  const table = new AddressLookupTableAccount({
    key: Keypair.generate().publicKey,
    state: {
      deactivationSlot: 2n ** 64n - 1n,
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      addresses: [keys[4]!.publicKey, keys[5]!.publicKey],
    },
  });
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions,
  }).compileToV0Message(lookup ? [table] : []);
  return new VersionedTransaction(message).serialize();
}

describe('readWireTransaction', () => {
  it('reads legacy and v0 transactions exactly like VersionedTransaction.deserialize', () => {
    fc.assert(
      fc.property(
        fc.array(instruction, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (ixs, v0, lookup) => {
          let raw: Uint8Array;
          try {
            raw = build(ixs, v0, lookup);
          } catch {
            return; // too large for one packet: web3.js refuses to build it
          }
          const ours = readWireTransaction(raw);
          const theirs = VersionedTransaction.deserialize(raw);
          const m = theirs.message;
          expect(ours.version).toBe(m.version);
          expect(ours.header).toEqual(m.header);
          expect(ours.signatures.map((s) => bs58.encode(s))).toEqual(
            theirs.signatures.map((s) => bs58.encode(s)),
          );
          expect(ours.accountKeys.map((k) => bs58.encode(k))).toEqual(
            m.staticAccountKeys.map((k) => k.toBase58()),
          );
          expect(bs58.encode(ours.recentBlockhash)).toBe(m.recentBlockhash);
          expect(ours.instructions.map((ix) => [ix.programIdIndex, ix.accountIndexes, [...ix.data]])).toEqual(
            m.compiledInstructions.map((ix) => [ix.programIdIndex, ix.accountKeyIndexes, [...ix.data]]),
          );
          expect(
            ours.addressTableLookups.map((l) => [
              bs58.encode(l.accountKey),
              l.writableIndexes,
              l.readonlyIndexes,
            ]),
          ).toEqual(
            m.addressTableLookups.map((l) => [l.accountKey.toBase58(), l.writableIndexes, l.readonlyIndexes]),
          );
          expect(Buffer.from(ours.message).equals(Buffer.from(m.serialize()))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads address table lookups', () => {
    const ix = {
      program: 0,
      accounts: [{ key: 5, isSigner: false, isWritable: true }],
      data: new Uint8Array(1),
    };
    const lookups = readWireTransaction(build([ix], true, true)).addressTableLookups;
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.writableIndexes).toEqual([1]);
  });

  it('refuses truncated input and unsupported versions', () => {
    const raw = new Transaction({ feePayer: keys[0]?.publicKey, recentBlockhash: blockhash })
      .add(
        SystemProgram.transfer({ fromPubkey: keys[0]!.publicKey, toPubkey: keys[1]!.publicKey, lamports: 1 }),
      )
      .serialize({ requireAllSignatures: false });
    for (let cut = 0; cut < raw.length; cut += 7)
      expect(() => readWireTransaction(raw.subarray(0, cut))).toThrow();
    const v1 = Buffer.from(raw);
    v1[65] = 0x81;
    expect(() => readWireTransaction(v1)).toThrow(/version 1/);
    expect(() => readWireTransaction(Uint8Array.of(0x80, 0x80, 0x80, 0x01))).toThrow(/compact-u16/);
  });
});
