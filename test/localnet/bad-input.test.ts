import { randomBytes } from 'node:crypto';
import { type Connection, Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, rawRpc, rpc, SOL, signatureOf, signedTransaction, transfer } from './wire.js';

let net: Localnet;
let connection: Connection;
let payer: Keypair;

beforeAll(async () => {
  net = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = net.connection();
  payer = await fundedKeypair(connection, 10 * SOL);
});

afterAll(async () => {
  await net?.close();
});

const send = (bytes: Uint8Array, config: Record<string, unknown> = {}) =>
  rpc(net.rpcUrl, 'sendTransaction', [
    Buffer.from(bytes).toString('base64'),
    { encoding: 'base64', ...config },
  ]);

async function signedTransfer(lamports = 1_000_000, from = payer): Promise<Transaction> {
  return signedTransaction(
    connection,
    [transfer(from.publicKey, Keypair.generate().publicKey, lamports)],
    [from],
  );
}

describe('transactions a validator refuses', () => {
  it('garbage bytes and bad encodings are invalid params', async () => {
    const garbage = await send(randomBytes(200));
    expect(garbage.error?.code).toBe(-32602);
    expect(garbage.error?.message).toMatch(/failed to deserialize|invalid transaction/);
    const notBase64 = await rpc(net.rpcUrl, 'sendTransaction', ['%%%', { encoding: 'base64' }]);
    expect(notBase64.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('invalid base64'),
    });
    const tooLarge = await send(randomBytes(1300));
    expect(tooLarge.error).toMatchObject({ code: -32602, message: expect.stringContaining('too large') });
  });

  it('a tampered signature or message fails signature verification (-32003)', async () => {
    const bytes = (await signedTransfer()).serialize();
    const badSignature = Buffer.from(bytes);
    badSignature[10] = (badSignature[10] ?? 0) ^ 0xff;
    const badMessage = Buffer.from(bytes);
    badMessage[badMessage.length - 1] = (badMessage[badMessage.length - 1] ?? 0) ^ 0x01;
    for (const tampered of [badSignature, badMessage]) {
      expect((await send(tampered)).error).toEqual({
        code: -32003,
        message: 'Transaction signature verification failure',
      });
    }
  });

  it('a missing signature fails signature verification (-32003)', async () => {
    const cosigner = Keypair.generate();
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      transfer(payer.publicKey, cosigner.publicKey, 1_000_000),
      SystemProgram.assign({ accountPubkey: cosigner.publicKey, programId: SystemProgram.programId }),
    );
    tx.partialSign(payer);
    const reply = await send(tx.serialize({ requireAllSignatures: false }));
    expect(reply.error).toEqual({ code: -32003, message: 'Transaction signature verification failure' });
  });

  it('a stale or unknown blockhash is BlockhashNotFound', async () => {
    const stale = await signedTransfer();
    for (let i = 0; i < 151; i++) await net.warpTime(1);
    expect((await rpc(net.rpcUrl, 'isBlockhashValid', [stale.recentBlockhash])).result).toMatchObject({
      value: false,
    });
    const tx = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
    }).add(transfer(payer.publicKey, Keypair.generate().publicKey, 1));
    tx.sign(payer);
    for (const bytes of [stale.serialize(), tx.serialize()]) {
      const reply = await send(bytes);
      expect(reply.error).toMatchObject({
        code: -32002,
        message: 'Transaction simulation failed: Blockhash not found',
        data: { err: 'BlockhashNotFound', logs: [] },
      });
    }
  });

  it('a fee payer that cannot pay is refused before anything runs', async () => {
    const nobody = Keypair.generate();
    const unfunded = await send((await signedTransfer(1, nobody)).serialize());
    expect(unfunded.error).toMatchObject({
      code: -32002,
      message:
        'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.',
      data: { err: 'AccountNotFound' },
    });
    const minimum = await connection.getMinimumBalanceForRentExemption(0);
    const poor = await fundedKeypair(connection, minimum);
    const cannotStayExempt = await send((await signedTransfer(1, poor)).serialize());
    expect(cannotStayExempt.error).toMatchObject({
      code: -32002,
      message:
        'Transaction simulation failed: Transaction results in an account (0) with insufficient funds for rent',
      data: { err: { InsufficientFundsForRent: { account_index: 0 } } },
    });
    expect(await connection.getBalance(poor.publicKey)).toBe(minimum);
  });

  it('a transfer of more than the balance fails with the System program error', async () => {
    const balance = await connection.getBalance(payer.publicKey);
    const reply = await send((await signedTransfer(balance * 2)).serialize());
    expect(reply.error?.code).toBe(-32002);
    expect(reply.error?.message).toBe(
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    );
    expect(reply.error?.data).toMatchObject({
      err: { InstructionError: [0, { Custom: 1 }] },
      logs: expect.arrayContaining([
        `Transfer: insufficient lamports ${balance - 5_000}, need ${balance * 2}`,
      ]),
    });
    expect(await connection.getBalance(payer.publicKey)).toBe(balance);
  });

  it('a duplicate is AlreadyProcessed and is charged once', async () => {
    const tx = await signedTransfer(2_000_000);
    const bytes = tx.serialize();
    expect((await send(bytes)).result).toBe(signatureOf(tx));
    const balance = await connection.getBalance(payer.publicKey);
    expect((await send(bytes)).error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: This transaction has already been processed',
      data: { err: 'AlreadyProcessed' },
    });
    expect((await send(bytes, { skipPreflight: true })).result).toBe(signatureOf(tx));
    expect(await connection.getBalance(payer.publicKey)).toBe(balance);
  });

  it('keeps serving after all of it', async () => {
    expect((await rpc(net.rpcUrl, 'getHealth')).result).toBe('ok');
    expect((await rpc(net.rpcUrl, 'getBalance', ['not-a-key'])).error).toEqual({
      code: -32602,
      message: 'Invalid param: Invalid',
    });
    const tx = await signedTransfer();
    expect((await send(tx.serialize())).result).toBe(signatureOf(tx));
  });
});

describe('JSON-RPC protocol', () => {
  it('answers parse errors, unknown methods and invalid requests', async () => {
    expect(await rawRpc(net.rpcUrl, '{not json')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect((await rpc(net.rpcUrl, 'noSuchMethod')).error).toEqual({
      code: -32601,
      message: 'Method not found',
    });
    expect((await rawRpc(net.rpcUrl, { jsonrpc: '1.0', id: 1, method: 'getSlot' })).error?.code).toBe(-32600);
    expect((await rawRpc(net.rpcUrl, [])).error?.code).toBe(-32600);
  });

  it('echoes ids as given and answers batches in order', async () => {
    const replies = await rawRpc(net.rpcUrl, [
      { jsonrpc: '2.0', id: 'a-string-id', method: 'getHealth' },
      { jsonrpc: '2.0', id: 7, method: 'getBalance', params: [123] },
      { jsonrpc: '2.0', method: 'getSlot' },
      { jsonrpc: '2.0', id: null, method: 'getGenesisHash' },
      'not a request',
    ]);
    expect(replies).toHaveLength(4);
    expect(replies[0]).toEqual({ jsonrpc: '2.0', id: 'a-string-id', result: 'ok' });
    expect(replies[1]).toMatchObject({ id: 7, error: { code: -32602 } });
    expect(replies[2]).toMatchObject({ id: null, result: expect.any(String) });
    expect(replies[3]).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers any params with a result or a JSON-RPC error, never a 500', async () => {
    const bad = [null, 42, 'x', [], {}, [1, 2], { encoding: 'nope' }];
    const methods = [
      'getAccountInfo',
      'getMultipleAccounts',
      'getProgramAccounts',
      'getBalance',
      'getSignaturesForAddress',
      'getSignatureStatuses',
      'getTransaction',
      'sendTransaction',
      'simulateTransaction',
      'requestAirdrop',
      'getBlockTime',
      'isBlockhashValid',
      'getFeeForMessage',
      'getMinimumBalanceForRentExemption',
      'localnet_registerDomain',
      'localnet_warpTime',
      'getTokenLargestAccounts',
    ];
    for (const method of methods) {
      for (const param of bad) {
        const response = await fetch(net.rpcUrl, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [param, param] }),
        });
        expect(response.status).toBe(200);
        const reply = (await response.json()) as { result?: unknown; error?: { code: number } };
        const outcome = 'result' in reply ? 'result' : reply.error?.code;
        expect(outcome, `${method}(${JSON.stringify(param)})`).toBeOneOf(['result', -32602, -32600, -32004]);
      }
    }
  });

  it('refuses other HTTP methods and oversized bodies', async () => {
    expect((await fetch(net.rpcUrl, { method: 'GET' })).status).toBe(405);
    expect(await (await fetch(`${net.rpcUrl}/health`)).text()).toBe('ok');
    const huge = await fetch(net.rpcUrl, { method: 'POST', body: 'x'.repeat(6 * 1024 * 1024) });
    expect(huge.status).toBe(413);
  });
});
