import {
  type AccountInfo,
  type Connection,
  type KeyedAccountInfo,
  Keypair,
  type Logs,
  SYSVAR_CLOCK_PUBKEY,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { NAME_PROGRAM } from '../../src/chain/sns.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, rpc, SOL, signatureOf, signedTransaction, transfer } from './wire.js';

let net: Localnet;
let connection: Connection;

beforeAll(async () => {
  net = await startLocalnet({ rpcPort: 0, wsPort: 0, slotMs: 100 });
  connection = net.connection();
});

afterAll(async () => {
  await net?.close();
});

/** A promise of the first callback, and the listener id to remove afterwards. */
function firstEvent<T>(subscribe: (callback: (value: T) => void) => number) {
  let resolve: (value: T) => void = () => {};
  const event = new Promise<T>((r) => {
    resolve = r;
  });
  return { event, id: subscribe((value) => resolve(value)) };
}

describe('subscriptions', () => {
  it('delivers the logs of a transaction to onLogs', async () => {
    const from = await fundedKeypair(connection);
    const { event, id } = firstEvent<Logs>((cb) => connection.onLogs(from.publicKey, cb));
    const tx = await signedTransaction(
      connection,
      [transfer(from.publicKey, Keypair.generate().publicKey, SOL)],
      [from],
    );
    // The subscription must be live before the transaction lands: a logs subscription has no history.
    await waitUntilSubscribed(connection);
    await connection.sendRawTransaction(tx.serialize());
    const logs = await event;
    expect(logs).toEqual({
      signature: signatureOf(tx),
      err: null,
      logs: [
        'Program 11111111111111111111111111111111 invoke [1]',
        'Program 11111111111111111111111111111111 success',
      ],
    });
    await connection.removeOnLogsListener(id);
  });

  it('notifies account and program changes', async () => {
    const owner = Keypair.generate().publicKey;
    const to = Keypair.generate().publicKey;
    const account = firstEvent<AccountInfo<Buffer>>((cb) => connection.onAccountChange(to, cb));
    const program = firstEvent<KeyedAccountInfo>((cb) =>
      connection.onProgramAccountChange(NAME_PROGRAM, cb, {
        filters: [{ memcmp: { offset: 32, bytes: owner.toBase58() } }],
      }),
    );
    await waitUntilSubscribed(connection);
    const from = await fundedKeypair(connection);
    await connection.sendRawTransaction(
      (await signedTransaction(connection, [transfer(from.publicKey, to, 2 * SOL)], [from])).serialize(),
    );
    expect((await account.event).lamports).toBe(2 * SOL);
    const nameAccount = await net.registerDomain('watched', owner);
    const keyed = await program.event;
    expect(keyed.accountId.equals(nameAccount)).toBe(true);
    expect(keyed.accountInfo.owner.equals(NAME_PROGRAM)).toBe(true);
    await connection.removeAccountChangeListener(account.id);
    await connection.removeProgramAccountChangeListener(program.id);
  });

  it('notifies a signature that is already processed at once, then drops the subscription', async () => {
    const from = await fundedKeypair(connection);
    const tx = await signedTransaction(
      connection,
      [transfer(from.publicKey, Keypair.generate().publicKey, SOL)],
      [from],
    );
    await connection.sendRawTransaction(tx.serialize());
    const socket = new WebSocket(net.wsUrl);
    await new Promise((resolve) => socket.once('open', resolve));
    const messages: unknown[] = [];
    const two = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        messages.push(JSON.parse(data.toString()));
        if (messages.length === 2) resolve();
      }),
    );
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'ping' }));
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'signatureSubscribe',
        params: [signatureOf(tx), { commitment: 'confirmed' }],
      }),
    );
    await two;
    const [reply, notification] = messages as [{ result: number }, unknown];
    expect(notification).toEqual({
      jsonrpc: '2.0',
      method: 'signatureNotification',
      params: {
        subscription: reply.result,
        result: { context: { slot: expect.any(Number) }, value: { err: null } },
      },
    });
    const unsubscribed = new Promise((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(data.toString()))),
    );
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'signatureUnsubscribe', params: [reply.result] }),
    );
    expect(await unsubscribed).toMatchObject({ id: 2, error: { code: -32602 } });
    socket.close();
  });

  it('ticks slots', async () => {
    const { event, id } = firstEvent<{ slot: number }>((cb) => connection.onSlotChange(cb));
    const { slot } = await event;
    expect(slot).toBeGreaterThan(0);
    await connection.removeSlotChangeListener(id);
  });
});

describe('chain time', () => {
  it('warpTime moves localnet_getTime and the Clock sysvar forward', async () => {
    const before = await net.getTime();
    const warped = await net.warpTime(3_600);
    expect(warped.unixTimestamp).toBeGreaterThanOrEqual(before.unixTimestamp + 3_600);
    expect(warped.slot).toBeGreaterThan(before.slot);
    const clock = await connection.getAccountInfo(SYSVAR_CLOCK_PUBKEY);
    const unixTimestamp = Number(clock?.data.readBigInt64LE(32));
    const now = await net.getTime();
    expect(unixTimestamp).toBe(now.unixTimestamp);
    expect(Number(clock?.data.readBigUInt64LE(0))).toBe(now.slot);
    expect(now.unixTimestamp).toBeGreaterThanOrEqual(warped.unixTimestamp);
  });

  it('refuses a warp that is not a positive number of seconds', async () => {
    for (const seconds of [0, -5, 1.5, 'soon']) {
      expect((await rpc(net.rpcUrl, 'localnet_warpTime', [seconds])).error?.code).toBe(-32602);
    }
  });

  it('describes the keeper, treasury, program and config without secrets', async () => {
    const reply = await rpc(net.rpcUrl, 'localnet_getKeeper');
    expect(reply.result).toEqual({
      keeper: net.keeper.publicKey.toBase58(),
      treasury: net.treasury.toBase58(),
      programId: net.programId.toBase58(),
      config: expect.any(String),
    });
  });
});

/**
 * Resolves once every subscription made so far is live on the server. web3.js sends pending
 * subscribe calls in creation order on one socket and the server handles them in order, so a
 * notification for a subscription made last proves the earlier ones were acknowledged.
 */
async function waitUntilSubscribed(c: Connection): Promise<void> {
  const { event, id } = firstEvent<{ slot: number }>((cb) => c.onSlotChange(cb));
  await event;
  await c.removeSlotChangeListener(id);
}
