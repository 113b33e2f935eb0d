import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { U64_MAX } from '../../../src/core/money.js';
import {
  reserveCommitment,
  reserveCommitmentMatches,
  reserveSalt,
} from '../../../src/core/reserve-commitment.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('reserveCommitment', () => {
  it('is sha256(u64 LE ‖ salt)', () => {
    const salt = new Uint8Array(32).fill(0xab);
    const reserve = 5_000_000_000n; // 0x12a05f200
    const expected = createHash('sha256')
      .update(Buffer.from('00f2052a01000000', 'hex'))
      .update(salt)
      .digest('hex');
    expect(hex(reserveCommitment(reserve, salt))).toBe(expected);
  });

  it('opens only with the same reserve and salt', () => {
    const salts = fc.uint8Array({ minLength: 32, maxLength: 32 });
    const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
    fc.assert(
      fc.property(u64, u64, salts, salts, (reserve, other, salt, otherSalt) => {
        const commitment = reserveCommitment(reserve, salt);
        expect(commitment).toHaveLength(32);
        expect(reserveCommitmentMatches(commitment, reserve, salt)).toBe(true);
        expect(reserveCommitmentMatches(commitment, other, salt)).toBe(other === reserve);
        expect(reserveCommitmentMatches(commitment, reserve, otherSalt)).toBe(hex(otherSalt) === hex(salt));
      }),
    );
  });

  it('refuses a salt that is not 32 bytes and a reserve outside u64', () => {
    expect(() => reserveCommitment(1n, new Uint8Array(31))).toThrow(/32 bytes/);
    expect(() => reserveCommitment(-1n, new Uint8Array(32))).toThrow(/u64/);
    expect(() => reserveCommitment(U64_MAX + 1n, new Uint8Array(32))).toThrow(/u64/);
  });
});

describe('reserveSalt', () => {
  it('is HMAC-SHA256(secret, auction id), the same for string and byte secrets', () => {
    const id = 'Dw5imrnJEkSoQjaexAwcKeaSVuAKNXQ6nnf6bAYHZbUq';
    const expected = createHmac('sha256', 'server-secret').update(id).digest('hex');
    expect(hex(reserveSalt('server-secret', id))).toBe(expected);
    expect(hex(reserveSalt(new TextEncoder().encode('server-secret'), id))).toBe(expected);
    expect(reserveSalt('server-secret', id)).toHaveLength(32);
    expect(hex(reserveSalt('server-secret', `${id}x`))).not.toBe(expected);
    expect(hex(reserveSalt('other-secret', id))).not.toBe(expected);
  });

  it('refuses an empty secret', () => {
    expect(() => reserveSalt('', 'id')).toThrow(/secret/);
  });
});
