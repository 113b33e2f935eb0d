import * as bonfidaModule from '@bonfida/spl-name-service';
import {
  type Connection,
  Keypair,
  PublicKey,
  SendTransactionError,
  type TransactionInstruction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeNameRegistry,
  domainNameAccount,
  NAME_PROGRAM,
  readDomainOwner,
  SOL_TLD,
  snsTransferInstruction,
} from '../../src/chain/sns.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';
import { fundedKeypair, rpc, signedTransaction } from '../localnet/wire.js';

/**
 * The part of @bonfida/spl-name-service used as a cross-check. Its published .d.ts re-export
 * extensionless paths that NodeNext cannot follow, so the types are declared here.
 */
interface BonfidaSns {
  getDomainKeySync(domain: string): { pubkey: PublicKey };
  NAME_PROGRAM_ID: PublicKey;
  ROOT_DOMAIN_ACCOUNT: PublicKey;
  NameRegistryState: {
    retrieve(
      connection: Connection,
      key: PublicKey,
    ): Promise<{ registry: { owner: PublicKey; parentName: PublicKey }; nftOwner: PublicKey | null }>;
  };
  transferInstruction(
    programId: PublicKey,
    nameAccount: PublicKey,
    newOwner: PublicKey,
    currentOwner: PublicKey,
  ): TransactionInstruction;
}
const { getDomainKeySync, NAME_PROGRAM_ID, NameRegistryState, ROOT_DOMAIN_ACCOUNT, transferInstruction } =
  bonfidaModule as unknown as BonfidaSns;

let net: Localnet;
let connection: Connection;

const NAMES = [
  'alice',
  'bob.sol',
  'bonfida',
  'x',
  '0123456789',
  'with_underscore',
  'crab-🦀',
  'a'.repeat(63),
];

beforeAll(async () => {
  net = await startLocalnet({ rpcPort: 0, wsPort: 0 });
  connection = net.connection();
});

afterAll(async () => {
  await net?.close();
});

describe('SNS derivation and layout', () => {
  it('uses the same constants as the SNS SDK', () => {
    expect(NAME_PROGRAM.equals(NAME_PROGRAM_ID)).toBe(true);
    expect(SOL_TLD.equals(ROOT_DOMAIN_ACCOUNT)).toBe(true);
  });

  it('derives name accounts exactly like getDomainKeySync', () => {
    for (const name of NAMES)
      expect(domainNameAccount(name).toBase58()).toBe(getDomainKeySync(name).pubkey.toBase58());
    expect(domainNameAccount('bonfida.sol').toBase58()).toBe('Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb');
  });

  it('builds the same Transfer instruction as the SDK', () => {
    const [name, owner, next] = [
      domainNameAccount('alice'),
      Keypair.generate().publicKey,
      Keypair.generate().publicKey,
    ];
    const ours = snsTransferInstruction(name, next, owner);
    const sdk = transferInstruction(NAME_PROGRAM_ID, name, next, owner);
    expect(ours.programId.equals(sdk.programId)).toBe(true);
    expect(Buffer.from(ours.data).equals(Buffer.from(sdk.data))).toBe(true);
    expect(ours.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual(
      sdk.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
    );
  });
});

describe('domains on the localnet', () => {
  it('registers domains that the SNS SDK reads back with their owner', async () => {
    const owner = Keypair.generate().publicKey;
    for (const name of NAMES) {
      const key = await net.registerDomain(name, owner);
      expect(key.toBase58()).toBe(getDomainKeySync(name).pubkey.toBase58());
      const { registry, nftOwner } = await NameRegistryState.retrieve(connection, key);
      expect(registry.owner.toBase58()).toBe(owner.toBase58());
      expect(registry.parentName.toBase58()).toBe(ROOT_DOMAIN_ACCOUNT.toBase58());
      expect(nftOwner).toBeNull();
      expect(await readDomainOwner(connection, name)).toBe(owner.toBase58());
    }
    const account = await connection.getAccountInfo(domainNameAccount('alice'));
    expect(account?.owner.equals(NAME_PROGRAM)).toBe(true);
    expect(account?.lamports).toBe(await connection.getMinimumBalanceForRentExemption(96));
    expect(decodeNameRegistry(account?.data ?? new Uint8Array())).toMatchObject({
      parent: SOL_TLD.toBase58(),
      owner: owner.toBase58(),
      class: null,
    });
    expect(await readDomainOwner(connection, 'never-registered')).toBeNull();
  });

  it('refuses invalid names and second registrations with -32602', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    await net.registerDomain('taken', owner);
    for (const [name, message] of [
      ['taken.sol', 'taken.sol is already registered'],
      ['', 'domain name is empty'],
      ['sub.domain', 'is not a second-level .sol domain'],
      ['Upper', 'must be lower case'],
      ['has space', 'whitespace'],
      ['a'.repeat(64), 'longer than 63 bytes'],
    ] as const) {
      const reply = await rpc(net.rpcUrl, 'localnet_registerDomain', [name, owner]);
      expect(reply.error?.code).toBe(-32602);
      expect(reply.error?.message).toContain(message);
    }
    const badOwner = await rpc(net.rpcUrl, 'localnet_registerDomain', ['fine', 'not-a-key']);
    expect(badOwner.error?.code).toBe(-32602);
  });

  it('lets the owner transfer a domain', async () => {
    const owner = await fundedKeypair(connection);
    const next = Keypair.generate().publicKey;
    const name = await net.registerDomain('transferable', owner.publicKey);
    const tx = await signedTransaction(
      connection,
      [snsTransferInstruction(name, next, owner.publicKey)],
      [owner],
    );
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    expect(await readDomainOwner(connection, 'transferable.sol')).toBe(next.toBase58());
    const recorded = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(recorded?.meta?.logMessages).toEqual([
      `Program ${NAME_PROGRAM.toBase58()} invoke [1]`,
      'Program log: Beginning processing',
      'Program log: Instruction unpacked',
      'Program log: Instruction: Transfer Ownership',
      expect.stringMatching(
        new RegExp(`^Program ${NAME_PROGRAM.toBase58()} consumed \\d+ of 200000 compute units$`),
      ),
      `Program ${NAME_PROGRAM.toBase58()} success`,
    ]);
  });

  it('refuses a transfer signed by someone else, with the validator error, and changes nothing', async () => {
    const owner = Keypair.generate().publicKey;
    const thief = await fundedKeypair(connection);
    const name = await net.registerDomain('guarded', owner);
    const before = await connection.getAccountInfo(name);
    const steal = snsTransferInstruction(name, thief.publicKey, thief.publicKey);

    const preflight = await connection
      .sendRawTransaction((await signedTransaction(connection, [steal], [thief])).serialize())
      .catch((e: unknown) => e);
    expect(preflight).toBeInstanceOf(SendTransactionError);
    expect((preflight as SendTransactionError).message).toContain(
      'Transaction simulation failed: Error processing Instruction 0: invalid program argument',
    );
    expect((preflight as SendTransactionError).logs).toContain(
      'Program log: The given name owner is incorrect or not a signer.',
    );

    const tx = await signedTransaction(connection, [steal], [thief]);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const { value } = await connection.confirmTransaction({
      signature,
      ...(await connection.getLatestBlockhash()),
    });
    expect(value.err).toEqual({ InstructionError: [0, 'InvalidArgument'] });

    const after = await connection.getAccountInfo(name);
    expect(after?.data.equals(before?.data ?? Buffer.alloc(0))).toBe(true);
    expect(after?.lamports).toBe(before?.lamports);
    expect(await readDomainOwner(connection, 'guarded')).toBe(owner.toBase58());
  });

  it('refuses a transfer whose owner did not sign', async () => {
    const owner = Keypair.generate().publicKey;
    const payer = await fundedKeypair(connection);
    const name = await net.registerDomain('unsigned-owner', owner);
    const ix = snsTransferInstruction(name, payer.publicKey, owner);
    ix.keys[1] = { pubkey: owner, isSigner: false, isWritable: false };
    const error = await connection
      .sendRawTransaction((await signedTransaction(connection, [ix], [payer])).serialize())
      .catch((e: unknown) => e);
    expect((error as SendTransactionError).message).toContain('invalid program argument');
    expect(await readDomainOwner(connection, 'unsigned-owner')).toBe(new PublicKey(owner).toBase58());
  });
});
