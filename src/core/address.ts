import bs58 from 'bs58';
import { LruCache } from './collections/lru-cache.js';

/** A base58 public key (32 bytes). Core code carries addresses as strings; PublicKey lives in adapters. */
export type Address = string & { readonly __brand: 'Address' };

export const ZERO_ADDRESS_BYTES = new Uint8Array(32);

/** Addresses already checked: a request path checks the same few (sellers, wallets) many times over. */
const knownAddresses = new LruCache<string, true>(10_000);

export function isAddress(value: unknown): value is Address {
  if (typeof value !== 'string' || value.length < 32 || value.length > 44) return false;
  if (knownAddresses.get(value)) return true;
  try {
    if (bs58.decode(value).length !== 32) return false;
  } catch {
    return false;
  }
  knownAddresses.set(value, true);
  return true;
}

export function assertIsAddress(value: unknown, field = 'address'): asserts value is Address {
  if (!isAddress(value)) throw new TypeError(`${field} must be a base58 public key (32 bytes)`);
}

export function address(value: string): Address {
  assertIsAddress(value);
  return value;
}

export function addressFromBytes(bytes: Uint8Array): Address {
  if (bytes.length !== 32) throw new TypeError(`an address is 32 bytes, got ${bytes.length}`);
  return bs58.encode(bytes) as Address;
}

export function addressToBytes(value: Address | string): Uint8Array {
  const bytes = bs58.decode(value);
  if (bytes.length !== 32) throw new TypeError(`an address is 32 bytes, got ${bytes.length}`);
  return bytes;
}

export function isZeroAddressBytes(bytes: Uint8Array): boolean {
  return bytes.length === 32 && bytes.every((b) => b === 0);
}
