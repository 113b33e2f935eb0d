/**
 * Snapshot file: the whole chain state as JSON (base64 data, decimal-string bigints), so a dev
 * chain survives restarts. Written atomically (temp file + rename); the history is capped.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { z } from 'zod';
import type { Address } from '../core/address.js';
import type { Bank } from './runtime/bank.js';
import { Ledger } from './runtime/ledger.js';
import type { SlotClockState } from './runtime/slot-clock.js';
import type { TransactionErrorJson } from './runtime/transaction-error.js';
import { type TransactionRecord, TransactionStore } from './runtime/transaction-store.js';

const SNAPSHOT_VERSION = 1;
const MAX_SNAPSHOT_TRANSACTIONS = 20_000;

const decimal = z.string().regex(/^\d+$/).transform(BigInt);
const base64 = z.string().transform((s) => new Uint8Array(Buffer.from(s, 'base64')));
const secretKey = z.string().transform((s, ctx) => {
  try {
    return Keypair.fromSecretKey(bs58.decode(s));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'invalid secret key' });
    return z.NEVER;
  }
});

const SnapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  genesisHash: z.string(),
  keeper: secretKey,
  faucet: secretKey,
  treasury: z.string(),
  clock: z.object({
    slot: z.number().int().min(0),
    unixTimestamp: z.number().int(),
    warpOffsetSeconds: z.number().int(),
    blockhashes: z.array(z.object({ blockhash: z.string(), height: z.number().int() })).min(1),
  }),
  accounts: z.array(
    z.object({
      pubkey: z.string(),
      lamports: decimal,
      owner: z.string(),
      data: base64,
      executable: z.boolean(),
      rentEpoch: decimal,
    }),
  ),
  transactions: z.array(
    z.object({
      signature: z.string(),
      slot: z.number().int(),
      blockTime: z.number().int(),
      raw: base64,
      accountKeys: z.array(z.string()),
      err: z.unknown(),
      fee: decimal,
      preBalances: z.array(decimal),
      postBalances: z.array(decimal),
      logs: z.array(z.string()),
      innerInstructions: z.array(
        z.object({
          index: z.number().int(),
          instructions: z.array(
            z.object({
              programIdIndex: z.number().int(),
              accounts: z.array(z.number().int()),
              data: base64,
              stackHeight: z.number().int(),
            }),
          ),
        }),
      ),
      unitsConsumed: z.number(),
    }),
  ),
});

export interface LoadedSnapshot {
  readonly genesisHash: string;
  readonly keeper: Keypair;
  readonly faucet: Keypair;
  readonly treasury: Address;
  readonly clock: SlotClockState;
  readonly ledger: Ledger;
  readonly store: TransactionStore;
}

/** Reads a snapshot; undefined when the file does not exist. A file that exists but is not a snapshot throws. */
export async function loadSnapshot(file: string): Promise<LoadedSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not a localnet snapshot: invalid JSON`);
  }
  const parsed = SnapshotSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`${file} is not a localnet snapshot: ${parsed.error.issues[0]?.message}`);
  const s = parsed.data;
  const ledger = new Ledger();
  for (const { pubkey, ...account } of s.accounts)
    ledger.set(pubkey as Address, { ...account, owner: account.owner as Address });
  const store = new TransactionStore();
  for (const t of s.transactions) {
    store.add({ ...t, accountKeys: t.accountKeys as Address[], err: t.err as TransactionErrorJson | null });
  }
  return {
    genesisHash: s.genesisHash,
    keeper: s.keeper,
    faucet: s.faucet,
    treasury: s.treasury as Address,
    clock: s.clock,
    ledger,
    store,
  };
}

export async function saveSnapshot(
  file: string,
  bank: Bank,
  keeper: Keypair,
  treasury: Address,
): Promise<void> {
  const records = [...bank.store.values()].slice(-MAX_SNAPSHOT_TRANSACTIONS);
  const snapshot = {
    version: SNAPSHOT_VERSION,
    genesisHash: bank.genesisHash,
    keeper: bs58.encode(keeper.secretKey),
    faucet: bs58.encode(bank.faucet.keypair.secretKey),
    treasury,
    clock: bank.clock.state(),
    accounts: [...bank.ledger.entries()].map(([pubkey, a]) => ({
      pubkey,
      lamports: a.lamports.toString(),
      owner: a.owner,
      data: Buffer.from(a.data).toString('base64'),
      executable: a.executable,
      rentEpoch: a.rentEpoch.toString(),
    })),
    transactions: records.map(encodeRecord),
  };
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, JSON.stringify(snapshot), { mode: 0o600 });
  await rename(temp, file);
}

function encodeRecord(r: TransactionRecord) {
  return {
    signature: r.signature,
    slot: r.slot,
    blockTime: r.blockTime,
    raw: Buffer.from(r.raw).toString('base64'),
    accountKeys: r.accountKeys,
    err: r.err,
    fee: r.fee.toString(),
    preBalances: r.preBalances.map(String),
    postBalances: r.postBalances.map(String),
    logs: r.logs,
    innerInstructions: r.innerInstructions.map(({ index, instructions }) => ({
      index,
      instructions: instructions.map((ix) => ({ ...ix, data: Buffer.from(ix.data).toString('base64') })),
    })),
    unitsConsumed: r.unitsConsumed,
  };
}

/** Saves every `intervalMs` when the chain changed, and once more on `close()`. */
export class SnapshotWriter {
  private savedVersion: number;
  private saving: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly bank: Bank,
    private readonly keeper: Keypair,
    private readonly treasury: Address,
    private readonly onError: (err: unknown) => void,
    intervalMs = 5_000,
  ) {
    this.savedVersion = bank.version;
    this.timer = setInterval(() => {
      if (this.bank.version !== this.savedVersion) void this.save();
    }, intervalMs);
    this.timer.unref();
  }

  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const version = this.bank.version;
      try {
        await saveSnapshot(this.file, this.bank, this.keeper, this.treasury);
        this.savedVersion = version;
      } catch (err) {
        this.onError(err);
      }
    });
    return this.saving;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.save();
  }
}
