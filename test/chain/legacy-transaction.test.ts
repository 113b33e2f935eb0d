import {
  Keypair,
  PublicKey,
  Transaction,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLegacyTransaction } from '../../src/chain/legacy-transaction.js';
import { MAX_TRANSACTION_BYTES } from '../../src/chain/transaction-builder.js';

/** What buildUnsignedTransaction wrote before: web3.js's compileMessage, serialized unsigned. */
function web3Bytes(feePayer: PublicKey, instructions: TransactionInstruction[], blockhash: string) {
  const message = new Transaction({ feePayer, blockhash, lastValidBlockHeight: 1 })
    .add(...instructions)
    .compileMessage();
  return {
    bytes: Buffer.from(new VersionedTransaction(message).serialize()),
    signers: message.accountKeys.slice(0, message.header.numRequiredSignatures).map((k) => k.toBase58()),
  };
}

// A small pool of keys, so instructions share keys (deduplication, flag merging, the fee payer
// among the accounts, a program that is also an account); base58 strings of all shapes.
const pool = Array.from({ length: 12 }, () => Keypair.generate().publicKey);
pool.push(new PublicKey('11111111111111111111111111111111'), new PublicKey(Buffer.alloc(32, 255)));
const key = fc.constantFrom(...pool);
const instruction = fc.record({
  programId: key,
  keys: fc.array(fc.record({ pubkey: key, isSigner: fc.boolean(), isWritable: fc.boolean() }), {
    maxLength: 8,
  }),
  data: fc.uint8Array({ maxLength: 200 }),
});

describe('compileLegacyTransaction', () => {
  it('writes the same bytes and signers as web3.js for any instruction set', () => {
    fc.assert(
      fc.property(
        key,
        fc.array(instruction, { minLength: 1, maxLength: 5 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (feePayer, ixs, hash) => {
          const instructions = ixs.map(
            (ix) => new TransactionInstruction({ ...ix, data: Buffer.from(ix.data) }),
          );
          const blockhash = bs58.encode(hash);
          const ours = compileLegacyTransaction(feePayer, instructions, blockhash, 10_000);
          if ('tooLarge' in ours) throw new Error('unexpected size refusal');
          const theirs = web3Bytes(feePayer, instructions, blockhash);
          expect(Buffer.from(ours.bytes).equals(theirs.bytes)).toBe(true);
          expect(ours.signers).toEqual(theirs.signers);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('sorts many fresh keys of the same role exactly as web3.js (ICU collation of base58)', () => {
    const payer = Keypair.generate().publicKey;
    const accounts = Array.from({ length: 30 }, () => ({
      pubkey: Keypair.generate().publicKey,
      isSigner: false,
      isWritable: true,
    }));
    const ix = new TransactionInstruction({ programId: pool[0]!, keys: accounts, data: Buffer.from([1]) });
    const ours = compileLegacyTransaction(payer, [ix], bs58.encode(Buffer.alloc(32, 3)), 10_000);
    if ('tooLarge' in ours) throw new Error('unexpected size refusal');
    expect(
      Buffer.from(ours.bytes).equals(web3Bytes(payer, [ix], bs58.encode(Buffer.alloc(32, 3))).bytes),
    ).toBe(true);
  });

  it('reports the size past the limit instead of writing', () => {
    const payer = Keypair.generate().publicKey;
    const ix = new TransactionInstruction({ programId: pool[0]!, keys: [], data: Buffer.alloc(1_200) });
    const result = compileLegacyTransaction(
      payer,
      [ix],
      bs58.encode(Buffer.alloc(32, 1)),
      MAX_TRANSACTION_BYTES,
    );
    expect(result).toEqual({ tooLarge: 1 + 64 + 3 + 1 + 64 + 32 + 1 + 1 + 1 + 2 + 1_200 });
  });
});
