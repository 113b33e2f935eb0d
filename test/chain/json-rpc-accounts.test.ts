import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_SYSVAR } from '../../src/chain/chain-clock.js';
import { createConnection } from '../../src/chain/connection.js';
import { JsonRpcAccounts, RpcResponseError } from '../../src/chain/json-rpc-accounts.js';
import { startLocalnet } from '../../src/localnet/index.js';

let localnet: Awaited<ReturnType<typeof startLocalnet>>;
let connection: Connection;
const funded = Keypair.generate();

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = createConnection(localnet.rpcUrl, { wsUrl: localnet.wsUrl });
  const signature = await connection.requestAirdrop(funded.publicKey, 3 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) }, 'confirmed');
});

afterAll(async () => {
  await localnet?.close();
});

describe('JsonRpcAccounts (lean getMultipleAccounts over the wire)', () => {
  it('answers exactly what web3.js getMultipleAccountsInfo answers: present, absent, sysvar and program accounts', async () => {
    const addresses = [
      funded.publicKey,
      Keypair.generate().publicKey, // absent
      CLOCK_SYSVAR,
      SystemProgram.programId,
      new PublicKey('SysvarRent111111111111111111111111111111111'),
    ];
    const lean = new JsonRpcAccounts(localnet.rpcUrl);
    // The clock moves between two calls: compare at one slot by asking until both reads agree on it.
    for (let attempt = 0; ; attempt++) {
      const [ours, theirs] = await Promise.all([
        lean.getMultipleAccountsInfo(addresses, 'confirmed'),
        connection.getMultipleAccountsInfo(addresses, 'confirmed'),
      ]);
      if (ours[2]?.data.equals(theirs[2]!.data) || attempt >= 20) {
        expect(ours).toEqual(theirs);
        expect(ours[0]!.owner.equals(SystemProgram.programId)).toBe(true);
        expect(ours[0]!.lamports).toBe(3 * LAMPORTS_PER_SOL);
        expect(ours[1]).toBeNull();
        expect(Buffer.isBuffer(ours[2]!.data)).toBe(true);
        return;
      }
    }
  });

  it('names the failure of a malformed request rather than answering wrong accounts', async () => {
    const lean = new JsonRpcAccounts(localnet.rpcUrl);
    const tooMany = Array.from({ length: 101 }, () => Keypair.generate().publicKey);
    const theirs = await connection.getMultipleAccountsInfo(tooMany).then(
      () => 'answered',
      (e: Error) => e.message,
    );
    const ours = await lean.getMultipleAccountsInfo(tooMany).then(
      () => 'answered',
      (e: Error) => e,
    );
    // Whatever the node says about 101 keys, both clients agree on whether it is an answer.
    if (theirs === 'answered') expect(ours).toBe('answered');
    else expect(ours).toBeInstanceOf(RpcResponseError);
  });

  it('retries a 429 like web3.js, then fails with the HTTP status of other errors', async () => {
    const statuses = [429, 200, 503];
    const server = createServer(async (req, res) => {
      for await (const _ of req);
      const status = statuses.shift() ?? 503;
      if (status !== 200) {
        res.writeHead(status).end();
        return;
      }
      const upstream = await connection.getMultipleAccountsInfo([CLOCK_SYSVAR]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: {
            context: { slot: 1 },
            value: [
              {
                ...upstream[0],
                owner: upstream[0]!.owner.toBase58(),
                data: [upstream[0]!.data.toString('base64'), 'base64'],
              },
            ],
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const lean = new JsonRpcAccounts(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const [clock] = await lean.getMultipleAccountsInfo([CLOCK_SYSVAR]);
      expect(clock?.owner.toBase58()).toBe('Sysvar1111111111111111111111111111111111111');
      await expect(lean.getMultipleAccountsInfo([CLOCK_SYSVAR])).rejects.toThrow('HTTP 503');
    } finally {
      server.close();
    }
  });
});
