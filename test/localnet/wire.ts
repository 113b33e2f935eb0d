/** Helpers for the localnet's own tests: raw JSON-RPC calls and signed transfers over the wire. */
import {
  type Connection,
  Keypair,
  type PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import bs58 from 'bs58';

export const SOL = 1_000_000_000;

export interface RpcReply {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data?: unknown };
}

/** POSTs a raw body (a request object, a batch array, or text) and returns the parsed reply. */
export async function rawRpc(url: string, body: unknown): Promise<RpcReply & RpcReply[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return (await response.json()) as RpcReply & RpcReply[];
}

export function rpc(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  return rawRpc(url, { jsonrpc: '2.0', id: `${method}-1`, method, params });
}

/** A new keypair holding exactly `lamports`, the airdrop confirmed through the websocket. */
export async function fundedKeypair(connection: Connection, lamports = 10 * SOL): Promise<Keypair> {
  const keypair = Keypair.generate();
  const signature = await connection.requestAirdrop(keypair.publicKey, lamports);
  const { value } = await connection.confirmTransaction({
    signature,
    ...(await connection.getLatestBlockhash()),
  });
  if (value.err) throw new Error(`airdrop failed: ${JSON.stringify(value.err)}`);
  return keypair;
}

/** A legacy transaction signed by `signers` (the first pays), with a fresh blockhash. */
export async function signedTransaction(
  connection: Connection,
  instructions: readonly TransactionInstruction[],
  signers: readonly Keypair[],
): Promise<Transaction> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: signers[0]?.publicKey, blockhash, lastValidBlockHeight }).add(
    ...instructions,
  );
  tx.sign(...signers);
  return tx;
}

export function transfer(from: PublicKey, to: PublicKey, lamports: number): TransactionInstruction {
  return SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });
}

/** The transaction id: the fee payer's signature, base58. */
export function signatureOf(tx: Transaction): string {
  if (!tx.signature) throw new Error('transaction is not signed');
  return bs58.encode(tx.signature);
}
