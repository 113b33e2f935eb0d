/**
 * The Solana wire format of a transaction (legacy and v0), read without allocating PublicKeys:
 * `VersionedTransaction.deserialize` does the same work with several copies and base58
 * round-trips per key, which dominates a transaction's cost on the localnet's hot path. Tests
 * check that both readers agree.
 */

export interface WireInstruction {
  readonly programIdIndex: number;
  readonly accountIndexes: readonly number[];
  readonly data: Uint8Array;
}

export interface WireLookup {
  readonly accountKey: Uint8Array;
  readonly writableIndexes: readonly number[];
  readonly readonlyIndexes: readonly number[];
}

export interface WireTransaction {
  readonly signatures: readonly Uint8Array[];
  /** The bytes the signatures sign. */
  readonly message: Uint8Array;
  readonly version: 'legacy' | 0;
  readonly header: {
    readonly numRequiredSignatures: number;
    readonly numReadonlySignedAccounts: number;
    readonly numReadonlyUnsignedAccounts: number;
  };
  readonly accountKeys: readonly Uint8Array[];
  readonly recentBlockhash: Uint8Array;
  readonly instructions: readonly WireInstruction[];
  readonly addressTableLookups: readonly WireLookup[];
}

export class WireFormatError extends Error {
  override readonly name = 'WireFormatError';
}

class Cursor {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    const b = this.bytes[this.offset];
    if (b === undefined) throw new WireFormatError('unexpected end of transaction');
    this.offset += 1;
    return b;
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new WireFormatError('unexpected end of transaction');
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** Solana's compact-u16: 1–3 bytes, 7 bits each, canonical encodings only. */
  shortU16(): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const b = this.byte();
      value |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) {
        if (b === 0 && i > 0) throw new WireFormatError('non-canonical compact-u16');
        if (value > 0xffff) throw new WireFormatError('compact-u16 overflow');
        return value;
      }
    }
    throw new WireFormatError('compact-u16 longer than 3 bytes');
  }

  indexes(): number[] {
    return Array.from(this.take(this.shortU16()));
  }
}

/** Reads a transaction; trailing bytes are ignored, as the validator's decoder allows them. */
export function readWireTransaction(raw: Uint8Array): WireTransaction {
  const c = new Cursor(raw);
  const signatureCount = c.shortU16();
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < signatureCount; i++) signatures.push(c.take(64));
  const messageStart = c.offset;
  let version: 'legacy' | 0 = 'legacy';
  if ((raw[c.offset] ?? 0) & 0x80) {
    const v = c.byte() & 0x7f;
    if (v !== 0) throw new WireFormatError(`transaction version ${v} is not supported`);
    version = 0;
  }
  const header = {
    numRequiredSignatures: c.byte(),
    numReadonlySignedAccounts: c.byte(),
    numReadonlyUnsignedAccounts: c.byte(),
  };
  const keyCount = c.shortU16();
  const accountKeys: Uint8Array[] = [];
  for (let i = 0; i < keyCount; i++) accountKeys.push(c.take(32));
  const recentBlockhash = c.take(32);
  const instructionCount = c.shortU16();
  const instructions: WireInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = c.byte();
    const accountIndexes = c.indexes();
    // A copy, so that a program cannot write into the stored transaction.
    const data = c.take(c.shortU16()).slice();
    instructions.push({ programIdIndex, accountIndexes, data });
  }
  const addressTableLookups: WireLookup[] = [];
  if (version === 0) {
    const lookupCount = c.shortU16();
    for (let i = 0; i < lookupCount; i++) {
      addressTableLookups.push({
        accountKey: c.take(32),
        writableIndexes: c.indexes(),
        readonlyIndexes: c.indexes(),
      });
    }
  }
  return {
    signatures,
    message: raw.subarray(messageStart, c.offset),
    version,
    header,
    accountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups,
  };
}
