import { type Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/chain/connection.js';
import { type LatestBlockhash, RecentBlockhashes } from '../../src/chain/recent-blockhash.js';
import { startLocalnet } from '../../src/localnet/index.js';

/** A controllable fetch: each call waits until the test answers it. */
function controlledFetch() {
  const pending: ((value: LatestBlockhash) => void)[] = [];
  let calls = 0;
  return {
    fetch: () =>
      new Promise<LatestBlockhash>((resolve) => {
        calls++;
        pending.push(resolve);
      }),
    answer(blockhash: string) {
      const resolve = pending.shift();
      if (!resolve) throw new Error('no fetch in flight');
      resolve({ blockhash, lastValidBlockHeight: 150 });
    },
    get calls() {
      return calls;
    },
    get inFlight() {
      return pending.length;
    },
  };
}

describe('RecentBlockhashes', () => {
  let now = 1_000_000;
  const wallMs = () => now;

  it('never hands out a blockhash older than maxAgeMs, refreshes in the background past refreshAfterMs, one fetch at a time', async () => {
    const f = controlledFetch();
    const cache = new RecentBlockhashes(f.fetch, { maxAgeMs: 2_000, refreshAfterMs: 1_000, wallMs });

    const first = Promise.all([cache.get(), cache.get()]);
    expect(f.calls).toBe(1); // concurrent callers share the fetch
    f.answer('A');
    const [a1, a2] = await first;
    expect(a1).toEqual({ blockhash: 'A', lastValidBlockHeight: 150, fetchedAtMs: 1_000_000 });
    expect(a2).toBe(a1);

    now += 999;
    expect((await cache.get()).blockhash).toBe('A');
    expect(f.calls).toBe(1);

    now += 1; // 1 000 ms: still served, a refresh starts
    expect((await cache.get()).blockhash).toBe('A');
    expect(f.calls).toBe(2);
    expect((await cache.get()).blockhash).toBe('A'); // no second refresh while one is in flight
    expect(f.calls).toBe(2);
    f.answer('B');
    await expect.poll(async () => (await cache.get()).blockhash).toBe('B');
    expect((await cache.get()).fetchedAtMs).toBe(1_001_000);

    now += 2_000; // B is 2 000 ms old: callers wait for a fresh one
    const waiting = cache.get();
    expect(f.calls).toBe(3);
    f.answer('C');
    expect(await waiting).toEqual({ blockhash: 'C', lastValidBlockHeight: 150, fetchedAtMs: 1_003_000 });
  });

  it('counts the age from when the fetch started, so a slow RPC cannot stretch the bound', async () => {
    const f = controlledFetch();
    const cache = new RecentBlockhashes(f.fetch, { maxAgeMs: 2_000, refreshAfterMs: 1_000, wallMs });
    const started = now;
    const pending = cache.get();
    now += 1_500; // the RPC takes 1.5 s to answer
    f.answer('slow');
    expect((await pending).fetchedAtMs).toBe(started);
    now += 500; // 2 s after the fetch started
    const next = cache.get();
    expect(f.inFlight).toBe(1);
    f.answer('fresh');
    expect((await next).blockhash).toBe('fresh');
  });

  it('a failed fetch fails the callers that wait for it, and the next call fetches again', async () => {
    let fail = true;
    let calls = 0;
    const cache = new RecentBlockhashes(
      async () => {
        calls++;
        if (fail) throw new Error('rpc down');
        return { blockhash: 'ok', lastValidBlockHeight: 1 };
      },
      { wallMs },
    );
    await expect(cache.get()).rejects.toThrow('rpc down');
    fail = false;
    expect((await cache.get()).blockhash).toBe('ok');
    expect(calls).toBe(2);
  });
});

describe('RecentBlockhashes on the localnet', () => {
  let localnet: Awaited<ReturnType<typeof startLocalnet>>;
  let connection: Connection;
  const payer = Keypair.generate();

  beforeAll(async () => {
    localnet = await startLocalnet({ rpcPort: 0, wsPort: 0 });
    connection = createConnection(localnet.rpcUrl, { wsUrl: localnet.wsUrl });
    const signature = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
    await connection.confirmTransaction(
      { signature, ...(await connection.getLatestBlockhash()) },
      'confirmed',
    );
  });
  afterAll(async () => {
    await localnet?.close();
  });

  it('hands out a blockhash the chain accepts, with its real lastValidBlockHeight', async () => {
    const cache = new RecentBlockhashes(() => connection.getLatestBlockhash('confirmed'));
    const recent = await cache.get();
    expect(recent.lastValidBlockHeight).toBeGreaterThanOrEqual(await connection.getBlockHeight('confirmed'));
    expect(recent.fetchedAtMs).toBeLessThanOrEqual(Date.now());
    const tx = new Transaction({ feePayer: payer.publicKey, ...recent }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1_000_000,
      }),
    );
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction({ signature, ...recent }, 'confirmed');
    expect((await connection.getSignatureStatus(signature)).value?.err).toBeNull();
  });
});
