/**
 * An unsigned legacy transaction compiled straight to its wire bytes: the same bytes as web3.js's
 * `new Transaction({ feePayer, blockhash }).add(...).compileMessage()` serialized with zeroed
 * signature slots (a test compares the two on many random instruction sets), at a fraction of the
 * CPU: web3.js base58-encodes every key again for each comparison while it deduplicates and
 * sorts (with a new ICU collator per comparison), then decodes them all back. Here each key is
 * encoded once (and remembered, see base58Of) and compared with one collator built with
 * web3.js's own collation options.
 */
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { base58Of } from './base58-of.js';

export interface CompiledLegacyTransaction {
  /** Zeroed signature slots, then the message. */
  readonly bytes: Uint8Array;
  /** Base58 keys that must sign, fee payer first. */
  readonly signers: string[];
}

interface KeyMeta {
  readonly key: PublicKey;
  readonly base58: string;
  isSigner: boolean;
  isWritable: boolean;
}

// web3.js orders keys of the same role by `toBase58().localeCompare(other, 'en', options)`.
const COLLATOR = new Intl.Collator('en', {
  localeMatcher: 'best fit',
  usage: 'sort',
  sensitivity: 'variant',
  ignorePunctuation: false,
  numeric: false,
  caseFirst: 'lower',
});

const shortVecLength = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);

/** The wire size of the transaction, for the size check before anything is written. */
export function legacyWireSize(
  signatures: number,
  keys: number,
  instructions: readonly { accounts: number; data: number }[],
): number {
  let size = shortVecLength(signatures) + 64 * signatures + 3 + shortVecLength(keys) + 32 * keys + 32;
  size += shortVecLength(instructions.length);
  for (const ix of instructions)
    size += 1 + shortVecLength(ix.accounts) + ix.accounts + shortVecLength(ix.data) + ix.data;
  return size;
}

/** The ordered, deduplicated keys of the message, as web3.js's `compileMessage` orders them. */
function orderedKeys(feePayer: PublicKey, instructions: readonly TransactionInstruction[]): KeyMeta[] {
  const byKey = new Map<string, KeyMeta>();
  const add = (key: PublicKey, base58: string, isSigner: boolean, isWritable: boolean) => {
    const seen = byKey.get(base58);
    if (seen) {
      seen.isSigner ||= isSigner;
      seen.isWritable ||= isWritable;
    } else byKey.set(base58, { key, base58, isSigner, isWritable });
  };
  const programs = new Map<string, PublicKey>();
  for (const ix of instructions) {
    for (const meta of ix.keys) add(meta.pubkey, base58Of(meta.pubkey), meta.isSigner, meta.isWritable);
    const program = base58Of(ix.programId);
    if (!programs.has(program)) programs.set(program, ix.programId);
  }
  for (const [base58, key] of programs) add(key, base58, false, false);

  const metas = [...byKey.values()].sort((x, y) => {
    if (x.isSigner !== y.isSigner) return x.isSigner ? -1 : 1;
    if (x.isWritable !== y.isWritable) return x.isWritable ? -1 : 1;
    return COLLATOR.compare(x.base58, y.base58);
  });
  const payer = base58Of(feePayer);
  const at = metas.findIndex((m) => m.base58 === payer);
  const payerMeta =
    at === -1 ? { key: feePayer, base58: payer, isSigner: true, isWritable: true } : metas.splice(at, 1)[0]!;
  payerMeta.isSigner = true;
  payerMeta.isWritable = true;
  metas.unshift(payerMeta);
  // Signers first, each group in its sorted order (a stable partition, as web3.js's).
  return [...metas.filter((m) => m.isSigner), ...metas.filter((m) => !m.isSigner)];
}

function writeShortVec(out: Uint8Array, at: number, n: number): number {
  let rest = n;
  let offset = at;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out[offset++] = byte;
      return offset;
    }
    out[offset++] = byte | 0x80;
  }
}

/**
 * Compiles the unsigned transaction. `maxBytes` is checked before writing: past it, returns the
 * size alone (the caller reports it).
 */
export function compileLegacyTransaction(
  feePayer: PublicKey,
  instructions: readonly TransactionInstruction[],
  recentBlockhash: string,
  maxBytes: number,
): CompiledLegacyTransaction | { readonly tooLarge: number } {
  const keys = orderedKeys(feePayer, instructions);
  const indexOf = new Map(keys.map((k, i) => [k.base58, i]));
  const compiled = instructions.map((ix) => ({
    program: indexOf.get(base58Of(ix.programId))!,
    accounts: ix.keys.map((m) => indexOf.get(base58Of(m.pubkey))!),
    data: ix.data,
  }));
  const signers = keys.filter((k) => k.isSigner);
  const size = legacyWireSize(
    signers.length,
    keys.length,
    compiled.map((ix) => ({ accounts: ix.accounts.length, data: ix.data.length })),
  );
  if (size > maxBytes) return { tooLarge: size };

  const out = new Uint8Array(size);
  let at = writeShortVec(out, 0, signers.length);
  at += 64 * signers.length; // zeroed signature slots
  out[at++] = signers.length;
  out[at++] = signers.filter((k) => !k.isWritable).length;
  out[at++] = keys.filter((k) => !k.isSigner && !k.isWritable).length;
  at = writeShortVec(out, at, keys.length);
  for (const k of keys) {
    out.set(k.key.toBytes(), at);
    at += 32;
  }
  out.set(bs58.decode(recentBlockhash), at);
  at += 32;
  at = writeShortVec(out, at, compiled.length);
  for (const ix of compiled) {
    out[at++] = ix.program;
    at = writeShortVec(out, at, ix.accounts.length);
    for (const index of ix.accounts) out[at++] = index;
    at = writeShortVec(out, at, ix.data.length);
    out.set(ix.data, at);
    at += ix.data.length;
  }
  return { bytes: out, signers: signers.map((k) => k.base58) };
}
