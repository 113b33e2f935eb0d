import {
  type Connection,
  Keypair,
  SendTransactionError,
  sendAndConfirmRawTransaction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, rpc, SOL, signatureOf, signedTransaction, transfer } from './wire.js';

let net: Localnet;
let connection: Connection;

beforeAll(async () => {
  net = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = net.connection();
});

afterAll(async () => {
  await net?.close();
});

describe('airdrops and transfers', () => {
  it('airdrops through a recorded, confirmable transaction', async () => {
    const who = Keypair.generate().publicKey;
    const signature = await connection.requestAirdrop(who, 3 * SOL);
    const { value } = await connection.getSignatureStatuses([signature]);
    expect(value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(await connection.getBalance(who)).toBe(3 * SOL);
    const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx?.meta?.err).toBeNull();
    expect(tx?.meta?.postBalances[1]).toBe(3 * SOL);
  });

  it('confirms a System transfer through the websocket without printing a ws error', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      const from = await fundedKeypair(connection, 5 * SOL);
      const to = Keypair.generate().publicKey;
      const tx = await signedTransaction(connection, [transfer(from.publicKey, to, 2 * SOL)], [from]);
      const signature = await sendAndConfirmRawTransaction(connection, tx.serialize(), {
        signature: signatureOf(tx),
        blockhash: tx.recentBlockhash ?? '',
        lastValidBlockHeight: tx.lastValidBlockHeight ?? 0,
      });
      expect(signature).toBe(signatureOf(tx));
      expect(await connection.getBalance(from.publicKey)).toBe(3 * SOL - 5_000);
      expect(await connection.getBalance(to)).toBe(2 * SOL);
      expect(consoleError).not.toHaveBeenCalled();
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      stderr.mockRestore();
    }
  });
});

describe('atomic instructions', () => {
  it('with skipPreflight, a failing second instruction lands but only the fee is taken', async () => {
    const from = await fundedKeypair(connection, 5 * SOL);
    const first = Keypair.generate().publicKey;
    const second = Keypair.generate().publicKey;
    const tx = await signedTransaction(
      connection,
      [transfer(from.publicKey, first, 1 * SOL), transfer(from.publicKey, second, 100 * SOL)],
      [from],
    );
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const { value } = await connection.confirmTransaction({
      signature,
      blockhash: tx.recentBlockhash ?? '',
      lastValidBlockHeight: tx.lastValidBlockHeight ?? 0,
    });
    expect(value.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(await connection.getBalance(from.publicKey)).toBe(5 * SOL - 5_000);
    expect(await connection.getAccountInfo(first)).toBeNull();
    expect(await connection.getAccountInfo(second)).toBeNull();

    const recorded = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(recorded?.meta?.fee).toBe(5_000);
    expect(recorded?.meta?.postBalances).toEqual([5 * SOL - 5_000, 0, 0, 1]);
    expect(recorded?.meta?.logMessages).toEqual([
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
      'Program 11111111111111111111111111111111 invoke [1]',
      `Transfer: insufficient lamports ${4 * SOL - 5_000}, need ${100 * SOL}`,
      'Program 11111111111111111111111111111111 failed: custom program error: 0x1',
    ]);
  });

  it('with preflight, the same transaction is refused and charges nothing', async () => {
    const from = await fundedKeypair(connection, 5 * SOL);
    const first = Keypair.generate().publicKey;
    const tx = await signedTransaction(
      connection,
      [transfer(from.publicKey, first, 1 * SOL), transfer(from.publicKey, first, 100 * SOL)],
      [from],
    );
    const error = await connection.sendRawTransaction(tx.serialize()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendTransactionError);
    expect((error as SendTransactionError).message).toContain(
      'Transaction simulation failed: Error processing Instruction 1: custom program error: 0x1',
    );
    expect((error as SendTransactionError).logs).toContain(
      'Program 11111111111111111111111111111111 failed: custom program error: 0x1',
    );
    expect(await connection.getBalance(from.publicKey)).toBe(5 * SOL);
    expect(await connection.getAccountInfo(first)).toBeNull();
    const statuses = await rpc(net.rpcUrl, 'getSignatureStatuses', [
      [signatureOf(tx)],
      { searchTransactionHistory: true },
    ]);
    expect(statuses.result).toMatchObject({ value: [null] });
  });
});
