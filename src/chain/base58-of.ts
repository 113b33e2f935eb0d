/**
 * Base58 of a public key, remembered: web3.js's `toBase58` runs a quadratic base58 encoder on
 * every call, and the same keys (programs, sysvars, the Config, auctions, bidders) come back on
 * every transaction built. Keyed by the key's bytes, so new PublicKey objects of a known key hit.
 */
import type { PublicKey } from '@solana/web3.js';

const MAX_KEYS = 10_000;
const known = new Map<string, string>();

export function base58Of(key: PublicKey): string {
  const bytes = key.toBuffer().toString('latin1');
  let base58 = known.get(bytes);
  if (base58 === undefined) {
    base58 = key.toBase58();
    if (known.size >= MAX_KEYS) known.delete(known.keys().next().value!);
    known.set(bytes, base58);
  }
  return base58;
}
