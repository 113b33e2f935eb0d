import {
  AddressLookupTableAccount,
  type Connection,
  Keypair,
  PublicKey,
  SolanaJSONRPCError,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_PROGRAM, SOL_TLD } from '../../src/chain/sns.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, rawRpc, rpc, SOL, signedTransaction, transfer } from './wire.js';

let net: Localnet;
let connection: Connection;
let payer: Keypair;

beforeAll(async () => {
  net = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = net.connection();
  payer = await fundedKeypair(connection, 20 * SOL);
});

afterAll(async () => {
  await net?.close();
});

async function sendTransfer(to: PublicKey, lamports: number): Promise<string> {
  const tx = await signedTransaction(connection, [transfer(payer.publicKey, to, lamports)], [payer]);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return signature;
}

async function sendV0(to: PublicKey, lamports: number, lookups: AddressLookupTableAccount[] = []) {
  const { blockhash } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [transfer(payer.publicKey, to, lamports)],
  }).compileToV0Message(lookups);
  const tx = new VersionedTransaction(message);
  tx.sign([payer]);
  return tx;
}

describe('getTransaction', () => {
  it('returns a legacy transaction in the json and jsonParsed shapes web3.js validates', async () => {
    const to = Keypair.generate().publicKey;
    const signature = await sendTransfer(to, SOL);
    const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx?.version).toBe('legacy');
    expect(tx?.slot).toBeGreaterThanOrEqual(0);
    expect(typeof tx?.blockTime).toBe('number');
    expect(tx?.transaction.signatures).toEqual([signature]);
    const keys = tx?.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys).toEqual([payer.publicKey.toBase58(), to.toBase58(), '11111111111111111111111111111111']);
    expect(tx?.transaction.message.header).toEqual({
      numRequiredSignatures: 1,
      numReadonlySignedAccounts: 0,
      numReadonlyUnsignedAccounts: 1,
    });
    expect(tx?.meta).toMatchObject({ err: null, fee: 5_000, postBalances: [expect.any(Number), SOL, 1] });
    expect(tx?.meta?.preBalances[0]).toBe((tx?.meta?.postBalances[0] ?? 0) + SOL + 5_000);
    expect(tx?.meta?.computeUnitsConsumed).toBe(150);

    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(
      parsed?.transaction.message.accountKeys.map((k) => [k.pubkey.toBase58(), k.signer, k.writable]),
    ).toEqual([
      [payer.publicKey.toBase58(), true, true],
      [to.toBase58(), false, true],
      ['11111111111111111111111111111111', false, false],
    ]);
    expect(parsed?.transaction.message.instructions[0]).toMatchObject({
      programId: new PublicKey('11111111111111111111111111111111'),
      accounts: [payer.publicKey, to],
    });
    expect(
      await connection.getTransaction(bs58.encode(new Uint8Array(64).fill(9)), {
        maxSupportedTransactionVersion: 0,
      }),
    ).toBeNull();
  });

  it('serves v0 transactions only to clients that accept version 0', async () => {
    const to = Keypair.generate().publicKey;
    const tx = await sendV0(to, SOL);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    expect(await connection.getBalance(to)).toBe(SOL);
    const v0 = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(v0?.version).toBe(0);
    expect(v0?.transaction.message.addressTableLookups).toEqual([]);
    const legacyClient = await rpc(net.rpcUrl, 'getTransaction', [signature, { commitment: 'confirmed' }]);
    expect(legacyClient.error?.code).toBe(-32015);
    await expect(connection.getParsedTransaction(signature)).rejects.toBeInstanceOf(SolanaJSONRPCError);
  });

  it('refuses address table lookups it cannot resolve', async () => {
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: {
        deactivationSlot: BigInt(2) ** BigInt(64) - BigInt(1),
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [Keypair.generate().publicKey],
      },
    });
    const tx = await sendV0(table.state.addresses[0] as PublicKey, SOL, [table]);
    const reply = await rpc(net.rpcUrl, 'sendTransaction', [
      Buffer.from(tx.serialize()).toString('base64'),
      { encoding: 'base64' },
    ]);
    expect(reply.error).toEqual({
      code: -32602,
      message: "invalid transaction: Transaction loads an address table account that doesn't exist",
    });
  });
});

describe('simulation and fees', () => {
  it('simulates without signatures, with a replaced blockhash, and keeps nothing', async () => {
    const to = Keypair.generate().publicKey;
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: [transfer(payer.publicKey, to, SOL)],
    }).compileToV0Message();
    const unsigned = new VersionedTransaction(message);
    const stale = await connection.simulateTransaction(unsigned, { sigVerify: false });
    expect(stale.value.err).toBe('BlockhashNotFound');
    const { value, context } = await connection.simulateTransaction(unsigned, {
      sigVerify: false,
      replaceRecentBlockhash: true,
      accounts: { encoding: 'base64', addresses: [to.toBase58()] },
    });
    expect(context.slot).toBeGreaterThanOrEqual(0);
    expect(value.err).toBeNull();
    expect(value.unitsConsumed).toBe(150);
    expect(value.logs).toEqual([
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
    ]);
    expect(value.accounts?.[0]?.lamports).toBe(SOL);
    expect(await connection.getAccountInfo(to)).toBeNull();

    const raw = Buffer.from(unsigned.serialize()).toString('base64');
    const checked = await rpc(net.rpcUrl, 'simulateTransaction', [
      raw,
      { encoding: 'base64', sigVerify: true },
    ]);
    expect(checked.error).toEqual({ code: -32003, message: 'Transaction signature verification failure' });
    const both = await rpc(net.rpcUrl, 'simulateTransaction', [
      raw,
      { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: true },
    ]);
    expect(both.error?.code).toBe(-32602);
  });

  it('prices a message at 5000 lamports per signature, null for an unknown blockhash', async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const ix = transfer(payer.publicKey, Keypair.generate().publicKey, 1);
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [ix],
    });
    expect((await connection.getFeeForMessage(message.compileToLegacyMessage())).value).toBe(5_000);
    message.recentBlockhash = Keypair.generate().publicKey.toBase58();
    expect((await connection.getFeeForMessage(message.compileToV0Message())).value).toBeNull();
  });
});

describe('batches', () => {
  it('answers web3.js batch requests (getTransactions) and raw arrays', async () => {
    const signatures = [
      await sendTransfer(Keypair.generate().publicKey, 1_000_000),
      await sendTransfer(Keypair.generate().publicKey, 2_000_000),
    ];
    const txs = await connection.getTransactions(signatures, { maxSupportedTransactionVersion: 0 });
    expect(txs.map((t) => t?.transaction.signatures[0])).toEqual(signatures);
    const replies = await rawRpc(net.rpcUrl, [
      { jsonrpc: '2.0', id: 'one', method: 'getBalance', params: [payer.publicKey.toBase58()] },
      { jsonrpc: '2.0', id: 'two', method: 'getSlot' },
    ]);
    expect(replies.map((r) => r.id)).toEqual(['one', 'two']);
    expect(replies[0]?.result).toMatchObject({
      context: { slot: expect.any(Number) },
      value: expect.any(Number),
    });
  });
});

describe('getProgramAccounts', () => {
  it('filters by memcmp (base58 and base64) and dataSize, and slices data', async () => {
    const [alice, bob] = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const aliceKeys = [await net.registerDomain('gpa-a1', alice), await net.registerDomain('gpa-a2', alice)];
    await net.registerDomain('gpa-b1', bob);

    const owned = await connection.getProgramAccounts(NAME_PROGRAM, {
      filters: [
        { memcmp: { offset: 32, bytes: alice.toBase58() } },
        { memcmp: { offset: 0, bytes: SOL_TLD.toBase58() } },
      ],
      dataSlice: { offset: 0, length: 0 },
    });
    expect(owned.map((a) => a.pubkey.toBase58()).sort()).toEqual(aliceKeys.map((k) => k.toBase58()).sort());
    expect(owned.every((a) => a.account.data.length === 0)).toBe(true);

    const base64 = await rpc(net.rpcUrl, 'getProgramAccounts', [
      NAME_PROGRAM.toBase58(),
      {
        encoding: 'base64',
        withContext: true,
        dataSlice: { offset: 32, length: 32 },
        filters: [
          { dataSize: 96 },
          { memcmp: { offset: 32, bytes: bob.toBuffer().toString('base64'), encoding: 'base64' } },
        ],
      },
    ]);
    expect(base64.result).toMatchObject({
      context: { slot: expect.any(Number) },
      value: [{ account: { data: [bob.toBuffer().toString('base64'), 'base64'] } }],
    });

    expect(await connection.getProgramAccounts(NAME_PROGRAM, { filters: [{ dataSize: 97 }] })).toEqual([]);
    const tooMany = await rpc(net.rpcUrl, 'getProgramAccounts', [
      NAME_PROGRAM.toBase58(),
      { filters: Array(5).fill({ dataSize: 96 }) },
    ]);
    expect(tooMany.error).toMatchObject({ code: -32602 });
  });
});

describe('getSignaturesForAddress', () => {
  it('pages newest first with limit, before and until', async () => {
    const sender = await fundedKeypair(connection, 5 * SOL);
    const signatures: string[] = [];
    for (let i = 0; i < 5; i++) {
      const tx = await signedTransaction(
        connection,
        [transfer(sender.publicKey, Keypair.generate().publicKey, 1_000_000 + i)],
        [sender],
      );
      signatures.push(await connection.sendRawTransaction(tx.serialize()));
    }
    const newestFirst = [...signatures].reverse();
    const page1 = await connection.getSignaturesForAddress(sender.publicKey, { limit: 2 });
    expect(page1.map((s) => s.signature)).toEqual(newestFirst.slice(0, 2));
    expect(page1[0]).toMatchObject({
      err: null,
      memo: null,
      slot: expect.any(Number),
      blockTime: expect.any(Number),
    });
    const page2 = await connection.getSignaturesForAddress(sender.publicKey, {
      limit: 2,
      before: page1[1]?.signature,
    });
    expect(page2.map((s) => s.signature)).toEqual(newestFirst.slice(2, 4));
    const rest = await connection.getSignaturesForAddress(sender.publicKey, { before: page2[1]?.signature });
    expect(rest.map((s) => s.signature)).toEqual([newestFirst[4], expect.any(String)]);
    const until = await connection.getSignaturesForAddress(sender.publicKey, { until: signatures[2] });
    expect(until.map((s) => s.signature)).toEqual(newestFirst.slice(0, 2));
    const tooMany = await rpc(net.rpcUrl, 'getSignaturesForAddress', [
      sender.publicKey.toBase58(),
      { limit: 1001 },
    ]);
    expect(tooMany.error).toEqual({ code: -32602, message: 'Invalid limit; max 1000' });
  });
});
