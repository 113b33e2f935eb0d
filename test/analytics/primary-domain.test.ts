/**
 * `localnet_setPrimaryDomain` lays the favourite and reverse-lookup accounts out as mainnet does:
 * Bonfida's own reader finds the name, and so does the service's reader, over the wire.
 */
import * as bonfidaModule from '@bonfida/spl-name-service';
import { type Connection, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainNameAccount, snsTransferInstruction } from '../../src/chain/sns.js';
import { readPrimaryDomain } from '../../src/profiles/sns-primary-domain.js';
import { startTestLocalnet, type TestLocalnet } from '../helpers/localnet.js';

/** The part of @bonfida/spl-name-service used (its .d.ts paths do not resolve under NodeNext). */
interface BonfidaSns {
  getPrimaryDomain(
    connection: Connection,
    owner: PublicKey,
  ): Promise<{ domain: PublicKey; reverse: string; stale: boolean }>;
  getMultiplePrimaryDomains(connection: Connection, wallets: PublicKey[]): Promise<(string | undefined)[]>;
}
const { getPrimaryDomain, getMultiplePrimaryDomains } = bonfidaModule as unknown as BonfidaSns;

describe('SNS primary domain', () => {
  let t: TestLocalnet;
  beforeAll(async () => {
    t = await startTestLocalnet();
  });
  afterAll(() => t?.close());

  const setPrimary = async (owner: PublicKey, name: string) => {
    const response = await fetch(t.localnet.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'localnet_setPrimaryDomain',
        params: [owner.toBase58(), name],
      }),
    });
    return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  };

  it('is read the same by Bonfida and by the service', async () => {
    const owner = (await t.fundedKeypair()).publicKey;
    const nameAccount = await t.localnet.registerDomain('primary-check.sol', owner);
    expect(await readPrimaryDomain(t.connection, owner)).toBeNull();
    expect((await setPrimary(owner, 'primary-check.sol')).error).toBeUndefined();

    const bonfida = await getPrimaryDomain(t.connection, owner);
    expect(bonfida).toEqual({ domain: nameAccount, reverse: 'primary-check', stale: false });
    expect(await getMultiplePrimaryDomains(t.connection, [owner])).toEqual(['primary-check']);
    expect(await readPrimaryDomain(t.connection, owner)).toBe('primary-check.sol');
  });

  it('refuses a domain the wallet does not own, with invalid params', async () => {
    const owner = (await t.fundedKeypair()).publicKey;
    const other = (await t.fundedKeypair()).publicKey;
    await t.localnet.registerDomain('not-yours.sol', other);
    expect((await setPrimary(owner, 'not-yours.sol')).error).toMatchObject({ code: -32602 });
    expect((await setPrimary(owner, 'never-registered.sol')).error).toMatchObject({ code: -32602 });
    expect(await readPrimaryDomain(t.connection, owner)).toBeNull();
  });

  it('is no longer the name of a wallet that gave the domain away (stale)', async () => {
    const owner = await t.fundedKeypair();
    const buyer = new PublicKey(Buffer.alloc(32, 7));
    await t.localnet.registerDomain('given-away.sol', owner.publicKey);
    await setPrimary(owner.publicKey, 'given-away.sol');
    await t.send(
      [snsTransferInstruction(domainNameAccount('given-away.sol'), buyer, owner.publicKey)],
      [owner],
    );
    expect((await getPrimaryDomain(t.connection, owner.publicKey)).stale).toBe(true);
    expect(await readPrimaryDomain(t.connection, owner.publicKey)).toBeNull();
  });
});
