import {
  type Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/chain/connection.js';
import {
  buildUnsignedTransaction,
  MAX_TRANSACTION_BYTES,
  TransactionTooLargeError,
} from '../../src/chain/transaction-builder.js';
import { startLocalnet } from '../../src/localnet/index.js';

let localnet: Awaited<ReturnType<typeof startLocalnet>>;
let connection: Connection;
const payer = Keypair.generate();

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = createConnection(localnet.rpcUrl, { wsUrl: localnet.wsUrl });
  const signature = await connection.requestAirdrop(payer.publicKey, 10 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) }, 'confirmed');
});

afterAll(async () => {
  await localnet?.close();
});

const transfer = (to: PublicKey, lamports: number) =>
  SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports });

describe('buildUnsignedTransaction', () => {
  it('builds a legacy transaction a wallet decodes with Transaction.from, signed by the payer alone', async () => {
    const recipient = Keypair.generate().publicKey;
    const built = await buildUnsignedTransaction(connection, {
      feePayer: payer.publicKey,
      instructions: [transfer(recipient, 1_000_000)],
    });
    expect(built.version).toBe('legacy');
    expect(built.signers).toEqual([payer.publicKey.toBase58()]);
    const bytes = Buffer.from(built.transaction, 'base64');
    expect(built.sizeBytes).toBe(bytes.length);

    const tx = Transaction.from(bytes);
    expect(tx.feePayer?.toBase58()).toBe(payer.publicKey.toBase58());
    expect(tx.recentBlockhash).toBe(built.blockhash);
    expect(tx.signatures.map((s) => [s.publicKey.toBase58(), s.signature])).toEqual([
      [payer.publicKey.toBase58(), null],
    ]);
    expect(VersionedTransaction.deserialize(bytes).message.recentBlockhash).toBe(built.blockhash);
    expect(built.lastValidBlockHeight).toBeGreaterThanOrEqual(await connection.getBlockHeight('confirmed'));

    // Exactly what an existing client does with the API's response.
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const confirmed = await connection.confirmTransaction(
      { signature, blockhash: built.blockhash, lastValidBlockHeight: built.lastValidBlockHeight },
      'confirmed',
    );
    expect(confirmed.value.err).toBeNull();
    expect(await connection.getBalance(recipient)).toBe(1_000_000);
  });

  it('builds a v0 transaction on request that VersionedTransaction reads and the chain accepts', async () => {
    const recipient = Keypair.generate().publicKey;
    const built = await buildUnsignedTransaction(connection, {
      feePayer: payer.publicKey,
      instructions: [transfer(recipient, 2_000_000)],
      version: 0,
    });
    expect(built.version).toBe(0);
    expect(built.signers).toEqual([payer.publicKey.toBase58()]);
    const tx = VersionedTransaction.deserialize(Buffer.from(built.transaction, 'base64'));
    expect(tx.version).toBe(0);
    expect(tx.message.recentBlockhash).toBe(built.blockhash);
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(payer.publicKey.toBase58());
    expect(tx.signatures).toEqual([new Uint8Array(64)]);

    tx.sign([payer]);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const confirmed = await connection.confirmTransaction(
      { signature, blockhash: built.blockhash, lastValidBlockHeight: built.lastValidBlockHeight },
      'confirmed',
    );
    expect(confirmed.value.err).toBeNull();
    expect(await connection.getBalance(recipient)).toBe(2_000_000);
  });

  it('lists every extra signer an instruction needs', async () => {
    const newAccount = Keypair.generate();
    const built = await buildUnsignedTransaction(connection, {
      feePayer: payer.publicKey,
      instructions: [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: newAccount.publicKey,
          lamports: 1_000_000,
          space: 0,
          programId: SystemProgram.programId,
        }),
      ],
    });
    expect(built.signers).toEqual([payer.publicKey.toBase58(), newAccount.publicKey.toBase58()]);
    const tx = Transaction.from(Buffer.from(built.transaction, 'base64'));
    expect(tx.signatures.map((s) => s.publicKey.toBase58())).toEqual(built.signers);
  });

  it.each(['legacy', 0] as const)(
    '%s: fills up to exactly 1232 bytes and refuses one byte more',
    async (version) => {
      const program = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');
      const withData = (n: number) =>
        buildUnsignedTransaction(connection, {
          feePayer: payer.publicKey,
          instructions: [new TransactionInstruction({ programId: program, keys: [], data: Buffer.alloc(n) })],
          version,
        });
      const empty = await withData(0);
      // Data of 128 bytes or more takes a 2-byte length prefix.
      const fits = MAX_TRANSACTION_BYTES - empty.sizeBytes - 1;
      const full = await withData(fits);
      expect(full.sizeBytes).toBe(MAX_TRANSACTION_BYTES);
      expect(Buffer.from(full.transaction, 'base64')).toHaveLength(MAX_TRANSACTION_BYTES);

      const tooLarge = withData(fits + 1);
      await expect(tooLarge).rejects.toBeInstanceOf(TransactionTooLargeError);
      await expect(tooLarge).rejects.toMatchObject({ sizeBytes: MAX_TRANSACTION_BYTES + 1 });
      await expect(withData(3_000)).rejects.toThrow(/transaction too large: \d+ bytes > 1232/);
    },
  );

  it('refuses a transaction without instructions', async () => {
    await expect(
      buildUnsignedTransaction(connection, { feePayer: payer.publicKey, instructions: [] }),
    ).rejects.toThrow(/at least one instruction/);
  });
});
