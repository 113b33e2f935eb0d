/**
 * A localnet for one test file, driven over the wire with a stock web3.js Connection: funded
 * keypairs (airdrop), domains, signed transactions, chain time, exact balances.
 */
import {
  type Connection,
  Keypair,
  type PublicKey,
  SendTransactionError,
  sendAndConfirmTransaction,
  Transaction,
  type TransactionError,
  type TransactionInstruction,
} from '@solana/web3.js';
import { expect } from 'vitest';
import {
  AUCTION_PROGRAM_ERRORS,
  type AuctionProgramErrorName,
} from '../../src/core/program/program-errors.js';
import { type Localnet, startLocalnet } from '../../src/localnet/index.js';

export const SOL = 1_000_000_000n;
/** 5000 lamports per signature; every test transaction has one signer. */
export const TX_FEE = 5_000n;

export interface TestLocalnet {
  readonly localnet: Localnet;
  readonly connection: Connection;
  readonly keeper: Keypair;
  readonly treasury: PublicKey;
  /** A new keypair holding exactly `lamports` (default 100 SOL), confirmed. */
  fundedKeypair(lamports?: bigint): Promise<Keypair>;
  /** Registers `count` fresh `.sol` names owned by `owner`; returns the names. */
  registerDomains(owner: PublicKey, count?: number): Promise<string[]>;
  /** Signs with `signers` (the first pays the fee), sends with preflight and confirms; returns the signature. */
  send(instructions: readonly TransactionInstruction[], signers: readonly Keypair[]): Promise<string>;
  /** Sends without preflight, so a failing transaction lands (fee charged); returns its signature and error. */
  sendSkippingPreflight(
    instructions: readonly TransactionInstruction[],
    signers: readonly Keypair[],
  ): Promise<{ signature: string; err: TransactionError | null }>;
  /** Balances of `keys` read in one `getMultipleAccounts` (one slot), 0 for missing accounts. */
  balances(keys: readonly PublicKey[]): Promise<bigint[]>;
  /** Moves chain time forward; returns the new chain time (Unix seconds). */
  warp(seconds: number): Promise<bigint>;
  chainTime(): Promise<bigint>;
  close(): Promise<void>;
}

export async function startTestLocalnet(options: { feeBps?: number } = {}): Promise<TestLocalnet> {
  const localnet = await startLocalnet({ rpcPort: 0, wsPort: 0, feeBps: options.feeBps ?? 0 });
  const connection = localnet.connection();
  let domainCounter = 0;

  const transaction = async (
    instructions: readonly TransactionInstruction[],
    signers: readonly Keypair[],
  ) => {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: signers[0]!.publicKey, blockhash, lastValidBlockHeight }).add(
      ...instructions,
    );
    tx.sign(...signers);
    return { tx, blockhash, lastValidBlockHeight };
  };

  const t: TestLocalnet = {
    localnet,
    connection,
    keeper: localnet.keeper,
    treasury: localnet.treasury,
    async fundedKeypair(lamports = 100n * SOL) {
      const keypair = Keypair.generate();
      const signature = await connection.requestAirdrop(keypair.publicKey, Number(lamports));
      const { value } = await connection.confirmTransaction({
        signature,
        ...(await connection.getLatestBlockhash()),
      });
      if (value.err) throw new Error(`airdrop failed: ${JSON.stringify(value.err)}`);
      return keypair;
    },
    async registerDomains(owner, count = 1) {
      const names = Array.from({ length: count }, () => `domain-${++domainCounter}.sol`);
      for (const name of names) await localnet.registerDomain(name, owner);
      return names;
    },
    send: (instructions, signers) =>
      transaction(instructions, signers).then(({ tx }) =>
        sendAndConfirmTransaction(connection, tx, [...signers]),
      ),
    async sendSkippingPreflight(instructions, signers) {
      const { tx, blockhash, lastValidBlockHeight } = await transaction(instructions, signers);
      const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      const { value } = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
      return { signature, err: value.err };
    },
    async balances(keys) {
      const accounts = await connection.getMultipleAccountsInfo([...keys]);
      return accounts.map((a) => BigInt(a?.lamports ?? 0));
    },
    warp: async (seconds) => BigInt((await localnet.warpTime(seconds)).unixTimestamp),
    chainTime: async () => BigInt((await localnet.getTime()).unixTimestamp),
    close: () => localnet.close(),
  };
  return t;
}

/** The `{"Custom": n}` of an auction program error. */
export function customError(name: AuctionProgramErrorName): { Custom: number } {
  return { Custom: AUCTION_PROGRAM_ERRORS[name].code };
}

/**
 * Awaits a send that must fail in preflight with the auction program error `name`, as a wallet sees
 * it: `custom program error: 0x…` in the message and the program's log line naming the error.
 */
export async function expectProgramError(
  sending: Promise<unknown>,
  name: AuctionProgramErrorName,
): Promise<void> {
  const error = await sending.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SendTransactionError);
  const failure = error as SendTransactionError;
  const code = AUCTION_PROGRAM_ERRORS[name].code;
  expect(failure.message).toContain(`custom program error: 0x${code.toString(16)}`);
  expect(failure.logs?.join('\n')).toContain(`Error Code: ${name}. Error Number: ${code}.`);
}
