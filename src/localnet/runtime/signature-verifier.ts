import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import bs58 from 'bs58';
import { LruCache } from '../../core/collections/lru-cache.js';
import type { SanitizedTransaction } from './sanitized-transaction.js';

// DER SubjectPublicKeyInfo header of an Ed25519 key; the raw 32-byte key follows it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Verifies ed25519 signatures with Node's native crypto, caching the parsed public keys. */
export class SignatureVerifier {
  private readonly keys: LruCache<string, KeyObject | null>;

  constructor(cacheSize = 10_000) {
    this.keys = new LruCache(cacheSize);
  }

  /** True when every required signature is valid for its signer over the message bytes. */
  verifyTransaction(tx: SanitizedTransaction): boolean {
    for (let i = 0; i < tx.signatures.length; i++) {
      const signer = tx.accountKeys[i];
      const signature = tx.signatures[i];
      if (!signer || !signature || !this.verify(signer, tx.messageBytes, signature)) return false;
    }
    return true;
  }

  verify(signer: string, message: Uint8Array, signature: Uint8Array): boolean {
    const key = this.keyObject(signer);
    if (!key) return false;
    try {
      return verify(null, message, key, signature);
    } catch {
      return false;
    }
  }

  private keyObject(signer: string): KeyObject | null {
    const cached = this.keys.get(signer);
    if (cached !== undefined) return cached;
    let key: KeyObject | null;
    try {
      const der = Buffer.concat([ED25519_SPKI_PREFIX, bs58.decode(signer)]);
      key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    } catch {
      key = null;
    }
    this.keys.set(signer, key);
    return key;
  }
}
