import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDomainOwner } from '../../src/chain/sns.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, SOL, signedTransaction, transfer } from './wire.js';

let dir: string;
const running: Localnet[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'localnet-snapshot-'));
});

afterAll(async () => {
  await Promise.all(running.map((net) => net.close()));
  await rm(dir, { recursive: true, force: true });
});

async function start(snapshotFile: string): Promise<Localnet> {
  const net = await startLocalnet({ rpcPort: 0, wsPort: 0, snapshotFile });
  running.push(net);
  return net;
}

describe('snapshot', () => {
  it('restores domains, balances, history and the keeper after a restart', async () => {
    const file = join(dir, 'chain.json');
    const first = await start(file);
    const connection = first.connection();
    const alice = await fundedKeypair(connection, 7 * SOL);
    const owner = Keypair.generate().publicKey;
    await first.registerDomain('persisted', owner);
    const tx = await signedTransaction(connection, [transfer(alice.publicKey, owner, SOL)], [alice]);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const warped = await first.warpTime(86_400);
    const genesisHash = await connection.getGenesisHash();
    await first.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await start(file);
    const again = second.connection();
    expect(await again.getBalance(alice.publicKey)).toBe(6 * SOL - 5_000);
    expect(await again.getBalance(owner)).toBe(SOL);
    expect(await readDomainOwner(again, 'persisted.sol')).toBe(owner.toBase58());
    expect(
      (await again.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))?.meta?.err,
    ).toBeNull();
    expect(second.keeper.publicKey.equals(first.keeper.publicKey)).toBe(true);
    expect(second.treasury.equals(first.treasury)).toBe(true);
    expect(await again.getGenesisHash()).toBe(genesisHash);
    const time = await second.getTime();
    expect(time.slot).toBeGreaterThanOrEqual(warped.slot);
    expect(time.unixTimestamp).toBeGreaterThanOrEqual(warped.unixTimestamp);

    const next = await signedTransaction(again, [transfer(alice.publicKey, owner, SOL)], [alice]);
    await again.sendRawTransaction(next.serialize());
    expect(await again.getBalance(owner)).toBe(2 * SOL);
  });

  it('refuses to start from a file that is not a snapshot, and leaves it alone', async () => {
    const file = join(dir, 'not-a-snapshot.json');
    await writeFile(file, '{"hello": "world"}');
    await expect(startLocalnet({ rpcPort: 0, wsPort: 0, snapshotFile: file })).rejects.toThrow(
      /is not a localnet snapshot/,
    );
    expect(await readFile(file, 'utf8')).toBe('{"hello": "world"}');
  });
});
