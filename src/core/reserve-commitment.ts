/**
 * Hidden reserve: the chain stores only sha256(reserve u64 LE ‖ salt32). The salt is an HMAC of the
 * auction id under a server secret, so the service can always recompute it and reveal it at settlement.
 */
import { createHash, createHmac } from 'node:crypto';
import { U64_MAX } from './money.js';

export const RESERVE_SALT_BYTES = 32;

function u64Le(value: bigint): Uint8Array {
  if (value < 0n || value > U64_MAX) {
    throw new RangeError(`reserve must be a u64 lamport amount, got ${value}`);
  }
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

/** sha256(reserveLamports as u64 LE ‖ salt), 32 bytes: what `create_auction` stores on chain. */
export function reserveCommitment(reserveLamports: bigint, salt: Uint8Array): Uint8Array {
  if (salt.length !== RESERVE_SALT_BYTES) {
    throw new RangeError(`reserve salt must be ${RESERVE_SALT_BYTES} bytes, got ${salt.length}`);
  }
  return new Uint8Array(createHash('sha256').update(u64Le(reserveLamports)).update(salt).digest());
}

/** HMAC-SHA256(serverSecret, auctionId): the per-auction salt, recomputable from the id alone. */
export function reserveSalt(serverSecret: Uint8Array | string, auctionId: string): Uint8Array {
  if (serverSecret.length === 0) throw new RangeError('reserve server secret must not be empty');
  return new Uint8Array(createHmac('sha256', serverSecret).update(auctionId, 'utf8').digest());
}

/** Does (reserve, salt) open `commitment`? The settle instruction's check. */
export function reserveCommitmentMatches(
  commitment: Uint8Array,
  reserveLamports: bigint,
  salt: Uint8Array,
): boolean {
  const expected = reserveCommitment(reserveLamports, salt);
  return commitment.length === expected.length && expected.every((b, i) => b === commitment[i]);
}
