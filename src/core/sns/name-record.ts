import { type Address, addressFromBytes, addressToBytes, isZeroAddressBytes } from '../address.js';

/** `NameRecordHeader::LEN` in the SPL name service: parent ‖ owner ‖ class, then free-form data. */
export const NAME_RECORD_HEADER_LEN = 96;

export const NAME_RECORD_OFFSETS = { parent: 0, owner: 32, class: 64, data: 96 } as const;

export interface NameRecord {
  /** Parent name account; for a `.sol` domain, the `.sol` TLD account. */
  readonly parent: Address;
  readonly owner: Address;
  /** Record class; null for the default (all zeros), which is what ordinary domains carry. */
  readonly class: Address | null;
  /** Bytes after the header. */
  readonly data: Uint8Array;
}

export class NameRecordError extends Error {
  override readonly name = 'NameRecordError';
}

export function decodeNameRecord(bytes: Uint8Array): NameRecord {
  if (bytes.length < NAME_RECORD_HEADER_LEN) {
    throw new NameRecordError(
      `a name record is at least ${NAME_RECORD_HEADER_LEN} bytes, got ${bytes.length}`,
    );
  }
  const classBytes = bytes.subarray(64, 96);
  return {
    parent: addressFromBytes(bytes.subarray(0, 32)),
    owner: addressFromBytes(bytes.subarray(32, 64)),
    class: isZeroAddressBytes(classBytes) ? null : addressFromBytes(classBytes),
    data: bytes.slice(NAME_RECORD_HEADER_LEN),
  };
}

/** Header followed by `space` zero bytes (or the given data). */
export function encodeNameRecord(record: {
  parent: Address;
  owner: Address;
  class?: Address | null;
  data?: Uint8Array;
  space?: number;
}): Uint8Array {
  const data = record.data ?? new Uint8Array(record.space ?? 0);
  const out = new Uint8Array(NAME_RECORD_HEADER_LEN + data.length);
  out.set(addressToBytes(record.parent), 0);
  out.set(addressToBytes(record.owner), 32);
  if (record.class) out.set(addressToBytes(record.class), 64);
  out.set(data, NAME_RECORD_HEADER_LEN);
  return out;
}
