import bs58 from 'bs58';
import { integer } from './params.js';
import { RPC_ERRORS } from './rpc-error.js';

export type AccountFilter =
  | { readonly kind: 'dataSize'; readonly size: number }
  | { readonly kind: 'memcmp'; readonly offset: number; readonly bytes: Uint8Array };

const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;

/** `getProgramAccounts` / `programSubscribe` filters, decoded once per request. */
export function parseAccountFilters(value: unknown): AccountFilter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw RPC_ERRORS.invalidParams('filters must be an array');
  if (value.length > MAX_FILTERS) throw RPC_ERRORS.params(`Too many filters provided; max ${MAX_FILTERS}`);
  return value.map((filter: unknown): AccountFilter => {
    if (typeof filter !== 'object' || filter === null) throw RPC_ERRORS.invalidParams('invalid filter');
    const f = filter as Record<string, unknown>;
    if (f['dataSize'] !== undefined) return { kind: 'dataSize', size: integer(f['dataSize'], 'dataSize') };
    const memcmp = f['memcmp'];
    if (typeof memcmp !== 'object' || memcmp === null) {
      throw RPC_ERRORS.invalidParams('unknown filter, expected `dataSize` or `memcmp`');
    }
    const m = memcmp as Record<string, unknown>;
    const offset = integer(m['offset'], 'memcmp.offset');
    if (typeof m['bytes'] !== 'string') throw RPC_ERRORS.invalidParams('memcmp.bytes must be a string');
    return { kind: 'memcmp', offset, bytes: decodeMemcmpBytes(m['bytes'], m['encoding'] ?? 'base58') };
  });
}

function decodeMemcmpBytes(text: string, encoding: unknown): Uint8Array {
  let bytes: Uint8Array;
  if (encoding === 'base58') {
    try {
      bytes = bs58.decode(text);
    } catch {
      throw RPC_ERRORS.invalidParam('invalid base58 in memcmp.bytes');
    }
  } else if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
      throw RPC_ERRORS.invalidParam('invalid base64 in memcmp.bytes');
    }
    bytes = Buffer.from(text, 'base64');
  } else {
    throw RPC_ERRORS.invalidParams('memcmp.encoding must be base58 or base64');
  }
  if (bytes.length > MAX_MEMCMP_BYTES) {
    throw RPC_ERRORS.invalidParam(`encoded binary data should be less than ${MAX_MEMCMP_BYTES + 1} bytes`);
  }
  return bytes;
}

export function matchesFilters(data: Uint8Array, filters: readonly AccountFilter[]): boolean {
  for (const filter of filters) {
    if (filter.kind === 'dataSize') {
      if (data.length !== filter.size) return false;
      continue;
    }
    const { offset, bytes } = filter;
    if (offset + bytes.length > data.length) return false;
    for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
  }
  return true;
}
