/**
 * The indexer's lean history reader answers exactly what web3.js answers for the fields it reads:
 * `getTransactions` (slot, block time, error, logs) for a program transaction with events, a
 * failed one that landed and a signature the chain does not know; `getSignaturesForAddress`
 * (signature, slot, error) with limit, before and until.
 */
import { Keypair, SystemProgram } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAuctionAddress, randomAuctionNonce } from '../../src/chain/auction-accounts.js';
import { createAuctionInstruction } from '../../src/chain/auction-instructions.js';
import { JsonRpcTransactions } from '../../src/chain/json-rpc-transactions.js';
import { SOL, startTestLocalnet, type TestLocalnet } from '../helpers/localnet.js';

let t: TestLocalnet;

beforeAll(async () => {
  t = await startTestLocalnet();
});

afterAll(async () => {
  await t?.close();
});

describe('JsonRpcTransactions', () => {
  it('matches web3.js getTransactions on slot, block time, error and logs', async () => {
    const seller = await t.fundedKeypair();
    const [domain] = await t.registerDomains(seller.publicKey, 1);
    const nonce = randomAuctionNonce();
    const created = await t.send(
      [
        createAuctionInstruction({
          seller: seller.publicKey,
          nonce,
          auctionType: 'standard',
          domainNames: [domain!],
          durationSeconds: 3_600,
          startingPrice: SOL,
          minIncrement: SOL / 10n,
        }),
      ],
      [seller],
    );
    expect(findAuctionAddress(seller.publicKey, nonce).address).toBeTruthy();
    const poor = await t.fundedKeypair(2_000_000n);
    const failed = await t.sendSkippingPreflight(
      [
        SystemProgram.transfer({
          fromPubkey: poor.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: SOL,
        }),
      ],
      [poor],
    );
    expect(failed.err).not.toBeNull();
    const unknown = bs58.encode(new Uint8Array(64).fill(7));

    const signatures = [created, failed.signature, unknown];
    const lean = await new JsonRpcTransactions(t.connection.rpcEndpoint).getTransactionLogs(signatures);
    const web3 = await t.connection.getTransactions(signatures, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(lean).toEqual(
      web3.map((tx) =>
        tx === null
          ? null
          : {
              slot: tx.slot,
              blockTime: tx.blockTime ?? null,
              err: tx.meta?.err ?? null,
              logMessages: tx.meta?.logMessages ?? [],
            },
      ),
    );
    expect(lean[0]!.logMessages.some((line) => line.startsWith('Program data: '))).toBe(true);
    expect(lean[1]!.err).not.toBeNull();
    expect(lean[2]).toBeNull();

    // More than one batch (100 calls each), answers still in the order asked.
    const many = [
      ...Array.from({ length: 150 }, (_, i) => bs58.encode(new Uint8Array(64).fill(i + 10))),
      created,
    ];
    const answers = await new JsonRpcTransactions(t.connection.rpcEndpoint).getTransactionLogs(many);
    expect(answers).toHaveLength(151);
    expect(answers.slice(0, 150).every((a) => a === null)).toBe(true);
    expect(answers[150]).toEqual(lean[0]);
  });

  it('lists signatures as web3.js getSignaturesForAddress does, with limit, before and until', async () => {
    const payer = await t.fundedKeypair();
    const target = Keypair.generate().publicKey;
    const sent: string[] = [];
    for (let i = 0; i < 4; i++)
      sent.push(
        await t.send(
          [
            SystemProgram.transfer({
              fromPubkey: payer.publicKey,
              toPubkey: target,
              lamports: 1_000_000 + i,
            }),
          ],
          [payer],
        ),
      );
    const reader = new JsonRpcTransactions(t.connection.rpcEndpoint);
    const pick = (rows: readonly { signature: string; slot: number; err: unknown }[]) =>
      rows.map(({ signature, slot, err }) => ({ signature, slot, err: err ?? null }));
    for (const options of [
      { limit: 10 },
      { limit: 2 },
      { limit: 10, before: sent[3]! },
      { limit: 10, until: sent[0]! },
      { limit: 1, before: sent[2]!, until: sent[0]! },
    ]) {
      const lean = await reader.getSignaturesForAddress(target.toBase58(), options);
      expect(lean, JSON.stringify(options)).toEqual(
        pick(await t.connection.getSignaturesForAddress(target, options, 'confirmed')),
      );
    }
    expect(
      (await reader.getSignaturesForAddress(target.toBase58(), { limit: 10 })).map((r) => r.signature),
    ).toEqual([...sent].reverse());
  });

  it('answers an empty list without a request', async () => {
    expect(await new JsonRpcTransactions('http://127.0.0.1:1').getTransactionLogs([])).toEqual([]);
  });
});
