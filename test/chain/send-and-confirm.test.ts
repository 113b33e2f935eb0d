import { createServer } from 'node:net';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type PublicKey,
  SystemProgram,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/chain/connection.js';
import {
  type BlockhashLifetime,
  sendAndConfirmByPolling,
  TransactionExpiredError,
  TransactionFailedError,
  TransactionTimeoutError,
  transactionSignature,
} from '../../src/chain/send-and-confirm.js';
import { buildUnsignedTransaction, type TransactionVersion } from '../../src/chain/transaction-builder.js';
import { startLocalnet } from '../../src/localnet/index.js';

type Localnet = Awaited<ReturnType<typeof startLocalnet>>;
let localnet: Localnet;
let fastLocalnet: Localnet;
/** The keeper's view: polling only, its websocket endpoint a closed port. */
let keeperConnection: Connection;
let closedWsUrl: string;
const payer = Keypair.generate();

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Funds through a websocket-capable connection: only the keeper's view goes without one. */
async function fund(net: Localnet, who: PublicKey, sol: number): Promise<void> {
  const connection = createConnection(net.rpcUrl, { wsUrl: net.wsUrl });
  const signature = await connection.requestAirdrop(who, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) }, 'confirmed');
}

async function signedTransfer(
  connection: Connection,
  to: PublicKey,
  lamports: number,
  version: TransactionVersion = 'legacy',
): Promise<{ bytes: Uint8Array; lifetime: BlockhashLifetime }> {
  const built = await buildUnsignedTransaction(connection, {
    feePayer: payer.publicKey,
    instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })],
    version,
  });
  const tx = VersionedTransaction.deserialize(Buffer.from(built.transaction, 'base64'));
  tx.sign([payer]);
  return { bytes: tx.serialize(), lifetime: built };
}

/** A fake clock the loop advances through its injected delay: no wall-clock waits. */
function fakeTime(onDelay: (polls: number) => void = () => {}) {
  let now = 0;
  let polls = 0;
  return {
    now: () => now,
    delay: async (ms: number) => {
      now += ms;
      polls += 1;
      onDelay(polls);
      await new Promise((resolve) => setImmediate(resolve));
    },
    polls: () => polls,
  };
}

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  closedWsUrl = `ws://127.0.0.1:${await closedPort()}`;
  keeperConnection = createConnection(localnet.rpcUrl, { wsUrl: closedWsUrl });
  await fund(localnet, payer.publicKey, 10);
});

afterAll(async () => {
  await localnet?.close();
  await fastLocalnet?.close();
});

describe('sendAndConfirmByPolling', () => {
  it.each(['legacy', 0] as const)('confirms a %s transfer without a websocket', async (version) => {
    const recipient = Keypair.generate().publicKey;
    const { bytes, lifetime } = await signedTransfer(keeperConnection, recipient, 1_000_000, version);
    const result = await sendAndConfirmByPolling(keeperConnection, bytes, lifetime, { pollMs: 5 });
    expect(result.signature).toBe(transactionSignature(bytes));
    expect(['confirmed', 'finalized']).toContain(result.confirmationStatus);
    const landed = await keeperConnection.getTransaction(result.signature, {
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.slot).toBe(result.slot);
    expect(await keeperConnection.getBalance(recipient)).toBe(1_000_000);
  });

  it('re-sends the same bytes when the first send is lost, and the transaction runs once', async () => {
    const sentBodies: string[] = [];
    const lossy = new Connection(localnet.rpcUrl, {
      commitment: 'confirmed',
      wsEndpoint: closedWsUrl,
      fetch: async (input, init) => {
        const body = String(init?.body ?? '');
        const request = JSON.parse(body) as { id: string; method: string; params: unknown[] };
        if (request.method === 'sendTransaction') {
          sentBodies.push(String(request.params[0]));
          if (sentBodies.length === 1) {
            // Accepted by the RPC, never forwarded: what a dropped transaction looks like.
            return new Response(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: 'dropped' }));
          }
        }
        return fetch(input, init);
      },
    });
    const recipient = Keypair.generate().publicKey;
    const { bytes, lifetime } = await signedTransfer(lossy, recipient, 3_000_000);
    const time = fakeTime();
    const result = await sendAndConfirmByPolling(lossy, bytes, lifetime, {
      pollMs: 250,
      resendMs: 2_000,
      now: time.now,
      delay: time.delay,
    });
    expect(result.signature).toBe(transactionSignature(bytes));
    expect(sentBodies.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sentBodies).size).toBe(1);
    expect(time.polls()).toBeGreaterThanOrEqual(2_000 / 250);
    expect(await keeperConnection.getBalance(recipient)).toBe(3_000_000);
  });

  it('surfaces a preflight failure as TransactionFailedError with the program logs', async () => {
    const { bytes, lifetime } = await signedTransfer(
      keeperConnection,
      Keypair.generate().publicKey,
      1_000 * LAMPORTS_PER_SOL,
    );
    const failure = await sendAndConfirmByPolling(keeperConnection, bytes, lifetime, { pollMs: 5 }).catch(
      (e) => e,
    );
    expect(failure).toBeInstanceOf(TransactionFailedError);
    expect(failure).toMatchObject({ stage: 'preflight', signature: transactionSignature(bytes) });
    // System program: custom error 1 = ResultWithNegativeLamports (insufficient funds).
    expect(failure.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(failure.customErrorCode).toBe(1);
    expect(failure.logs.join('\n')).toMatch(/insufficient lamports/);
  });

  it('surfaces an on-chain failure as TransactionFailedError with logs from getTransaction', async () => {
    const { bytes, lifetime } = await signedTransfer(
      keeperConnection,
      Keypair.generate().publicKey,
      1_000 * LAMPORTS_PER_SOL,
    );
    const before = await keeperConnection.getBalance(payer.publicKey);
    const failure = await sendAndConfirmByPolling(keeperConnection, bytes, lifetime, {
      pollMs: 5,
      skipPreflight: true,
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(TransactionFailedError);
    expect(failure.stage).toBe('execution');
    expect(failure.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(failure.logs[0]).toBe(`Program ${SystemProgram.programId.toBase58()} invoke [1]`);
    expect(failure.logs.join('\n')).toMatch(/insufficient lamports/);
    // A landed failure still pays its fee.
    expect(await keeperConnection.getBalance(payer.publicKey)).toBe(before - 5_000);
  });

  it('throws TransactionExpiredError for a blockhash the chain no longer accepts', async () => {
    const { bytes } = await signedTransfer(keeperConnection, Keypair.generate().publicKey, 1_000);
    const tx = VersionedTransaction.deserialize(bytes);
    // Same payer and transfer, but a blockhash the chain never produced, valid up to a height already past.
    tx.message.recentBlockhash = bs58.encode(Keypair.generate().publicKey.toBytes());
    tx.sign([payer]);
    const height = await keeperConnection.getBlockHeight('confirmed');
    const lifetime = { blockhash: tx.message.recentBlockhash, lastValidBlockHeight: height - 1 };
    const failure = await sendAndConfirmByPolling(keeperConnection, tx.serialize(), lifetime, {
      pollMs: 5,
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(TransactionExpiredError);
    expect(failure.lastValidBlockHeight).toBe(height - 1);
    expect(failure.blockHeight).toBeGreaterThan(height - 1);
  });

  it('throws TransactionExpiredError for a real blockhash aged past its 150 blocks', async () => {
    fastLocalnet = await startLocalnet({ rpcPort: 0, wsPort: 0, slotMs: 2 });
    const fast = createConnection(fastLocalnet.rpcUrl, { wsUrl: fastLocalnet.wsUrl });
    await fund(fastLocalnet, payer.publicKey, 1);
    const { bytes, lifetime } = await signedTransfer(fast, Keypair.generate().publicKey, 1_000);
    // Wait on slot notifications (the chain's own ticks) until the blockhash is out of range.
    await new Promise<void>((resolve) => {
      const id = fast.onSlotChange(async () => {
        if ((await fast.getBlockHeight('confirmed')) > lifetime.lastValidBlockHeight) {
          void fast.removeSlotChangeListener(id);
          resolve();
        }
      });
    });
    const failure = await sendAndConfirmByPolling(fast, bytes, lifetime, { pollMs: 5 }).catch((e) => e);
    expect(failure).toBeInstanceOf(TransactionExpiredError);
    expect(await fast.getSignatureStatuses([transactionSignature(bytes)])).toMatchObject({ value: [null] });
  });

  it('gives up with TransactionTimeoutError when the RPC is unreachable', async () => {
    const { bytes, lifetime } = await signedTransfer(keeperConnection, Keypair.generate().publicKey, 1_000);
    const unreachable = createConnection(`http://127.0.0.1:${await closedPort()}`, { wsUrl: closedWsUrl });
    const time = fakeTime();
    const failure = await sendAndConfirmByPolling(unreachable, bytes, lifetime, {
      pollMs: 250,
      timeoutMs: 5_000,
      now: time.now,
      delay: time.delay,
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(TransactionTimeoutError);
    expect(failure.cause).toBeInstanceOf(Error);
    expect(time.polls()).toBe(5_000 / 250);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const { bytes, lifetime } = await signedTransfer(keeperConnection, Keypair.generate().publicKey, 1_000);
    const unreachable = createConnection(`http://127.0.0.1:${await closedPort()}`, { wsUrl: closedWsUrl });
    const time = fakeTime((polls) => polls === 3 && controller.abort(new Error('shutting down')));
    await expect(
      sendAndConfirmByPolling(unreachable, bytes, lifetime, {
        signal: controller.signal,
        now: time.now,
        delay: time.delay,
      }),
    ).rejects.toThrow('shutting down');
    expect(time.polls()).toBe(3);
  });

  it('refuses an unsigned transaction before sending anything', async () => {
    const built = await buildUnsignedTransaction(keeperConnection, {
      feePayer: payer.publicKey,
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
      ],
    });
    await expect(
      sendAndConfirmByPolling(keeperConnection, Buffer.from(built.transaction, 'base64'), built),
    ).rejects.toThrow(/not signed/);
  });
});
