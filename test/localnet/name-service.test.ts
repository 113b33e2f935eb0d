/**
 * The SPL Name Service program's Create, Update, Realloc, Transfer (by the parent owner) and
 * Delete, driven over the wire with hand-built instructions (the program's own Borsh encoding).
 */
import { createHash } from 'node:crypto';
import {
  type Connection,
  type Keypair,
  PublicKey,
  SendTransactionError,
  TransactionInstruction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeNameRegistry, NAME_PROGRAM } from '../../src/chain/sns.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, signedTransaction } from './wire.js';

let net: Localnet;
let connection: Connection;
let payer: Keypair;
let rootOwner: Keypair;
let childOwner: Keypair;

const NONE = PublicKey.default;
const hashed = (name: string) => createHash('sha256').update(`SPL Name Service${name}`).digest();
const nameKey = (name: string, parent = NONE) =>
  PublicKey.findProgramAddressSync([hashed(name), NONE.toBuffer(), parent.toBuffer()], NAME_PROGRAM)[0];
const u32 = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
const u64 = (n: number) => Buffer.from(BigUint64Array.of(BigInt(n)).buffer);
const meta = (pubkey: PublicKey, isWritable: boolean, isSigner = false) => ({ pubkey, isSigner, isWritable });
const nameIx = (keys: ReturnType<typeof meta>[], data: Buffer) =>
  new TransactionInstruction({ programId: NAME_PROGRAM, keys, data });

async function send(ix: TransactionInstruction, signers: Keypair[]): Promise<string> {
  const tx = await signedTransaction(connection, [ix], signers);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return signature;
}

async function create(
  name: string,
  owner: PublicKey,
  space: number,
  parent?: { key: PublicKey; owner: Keypair },
) {
  const lamports = await connection.getMinimumBalanceForRentExemption(96 + space);
  const keys = [
    meta(new PublicKey('11111111111111111111111111111111'), false),
    meta(payer.publicKey, true, true),
    meta(nameKey(name, parent?.key), true),
    meta(owner, false),
    meta(NONE, false),
    meta(parent?.key ?? NONE, false),
    ...(parent ? [meta(parent.owner.publicKey, false, true)] : []),
  ];
  const data = Buffer.concat([Buffer.of(0), u32(32), hashed(name), u64(lamports), u32(space)]);
  return send(nameIx(keys, data), parent ? [payer, parent.owner] : [payer]);
}

beforeAll(async () => {
  net = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = net.connection();
  [payer, rootOwner, childOwner] = await Promise.all([
    fundedKeypair(connection),
    fundedKeypair(connection),
    fundedKeypair(connection),
  ]);
});

afterAll(async () => {
  await net?.close();
});

describe('SPL Name Service program', () => {
  const root = () => nameKey('ns-root');
  const child = () => nameKey('ns-child', root());

  it('creates a name through CPIs signed with its PDA seeds, and a child signed by the parent owner', async () => {
    const signature = await create('ns-root', rootOwner.publicKey, 0);
    const account = await connection.getAccountInfo(root());
    expect(account?.owner.equals(NAME_PROGRAM)).toBe(true);
    expect(decodeNameRegistry(account?.data ?? Buffer.alloc(0)).owner).toBe(rootOwner.publicKey.toBase58());
    const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx?.meta?.innerInstructions?.[0]?.instructions).toHaveLength(3);
    expect(tx?.meta?.logMessages).toContain('Program 11111111111111111111111111111111 invoke [2]');

    await create('ns-child', childOwner.publicKey, 8, { key: root(), owner: rootOwner });
    const childAccount = await connection.getAccountInfo(child());
    expect(childAccount?.data.length).toBe(104);
    expect(decodeNameRegistry(childAccount?.data ?? Buffer.alloc(0)).parent).toBe(root().toBase58());
  });

  it('refuses to create a child without the parent owner signature, or twice', async () => {
    const error = await create('ns-orphan', childOwner.publicKey, 0, {
      key: root(),
      owner: childOwner,
    }).catch((e: unknown) => e);
    expect((error as SendTransactionError).logs).toContain(
      'Program log: The given parent name account owner is not correct.',
    );
    const again = await create('ns-root', childOwner.publicKey, 0).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(SendTransactionError);
    expect((again as SendTransactionError).logs).toContain(
      'Program log: The given name account already exists.',
    );
  });

  it('updates data for the owner only', async () => {
    const update = (signer: Keypair) =>
      send(
        nameIx(
          [meta(child(), true), meta(signer.publicKey, false, true)],
          Buffer.concat([Buffer.of(1), u32(2), u32(3), Buffer.from('abc')]),
        ),
        [signer],
      );
    await update(childOwner);
    expect((await connection.getAccountInfo(child()))?.data.subarray(96)).toEqual(
      Buffer.from([0, 0, 97, 98, 99, 0, 0, 0]),
    );
    const error = await update(rootOwner).catch((e: unknown) => e);
    expect((error as SendTransactionError).message).toContain('invalid program argument');
  });

  it('reallocates, charging the payer the extra rent', async () => {
    const before = await connection.getAccountInfo(child());
    const keys = [
      meta(new PublicKey('11111111111111111111111111111111'), false),
      meta(payer.publicKey, true, true),
      meta(child(), true),
      meta(childOwner.publicKey, false, true),
    ];
    await send(nameIx(keys, Buffer.concat([Buffer.of(4), u32(40)])), [payer, childOwner]);
    const after = await connection.getAccountInfo(child());
    expect(after?.data.length).toBe(136);
    expect(after?.data.subarray(0, 104)).toEqual(before?.data);
    expect(after?.lamports).toBe(await connection.getMinimumBalanceForRentExemption(136));
  });

  it('lets the parent owner transfer a child, and the new owner delete it', async () => {
    const transfer = nameIx(
      [meta(child(), true), meta(rootOwner.publicKey, false, true), meta(NONE, false), meta(root(), false)],
      Buffer.concat([Buffer.of(2), payer.publicKey.toBuffer()]),
    );
    await send(transfer, [rootOwner]);
    expect(
      decodeNameRegistry((await connection.getAccountInfo(child()))?.data ?? Buffer.alloc(0)).owner,
    ).toBe(payer.publicKey.toBase58());

    const rent = (await connection.getAccountInfo(child()))?.lamports ?? 0;
    const target = childOwner.publicKey;
    const targetBefore = await connection.getBalance(target);
    await send(
      nameIx([meta(child(), true), meta(payer.publicKey, true, true), meta(target, true)], Buffer.of(3)),
      [payer],
    );
    expect(await connection.getAccountInfo(child())).toBeNull();
    expect(await connection.getBalance(target)).toBe(targetBefore + rent);
  });

  it('rejects malformed instruction data', async () => {
    const error = await send(nameIx([meta(root(), true)], Buffer.of(9)), [payer]).catch((e: unknown) => e);
    expect((error as SendTransactionError).message).toContain('invalid instruction data');
  });
});
