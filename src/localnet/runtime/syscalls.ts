import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import type { Address } from '../../core/address.js';
import { LruCache } from '../../core/collections/lru-cache.js';
import { ProgramError, type Syscalls } from './program-abi.js';
import { minimumBalance } from './rent.js';

/**
 * Syscalls shared by every invocation. PDA derivation is pure, so results are cached by
 * (program, seeds): a bid transaction derives the same few PDAs over and over, and the on-curve
 * check behind each derivation is the most expensive step of a transaction.
 */
export function createSyscalls(cacheSize = 100_000): Syscalls {
  const created = new LruCache<string, Address | null>(cacheSize);
  const found = new LruCache<string, [Address, number]>(cacheSize);

  return {
    createProgramAddress(seeds, programId) {
      const key = cacheKey(seeds, programId);
      let address = created.get(key);
      if (address === undefined) {
        try {
          address = PublicKey.createProgramAddressSync(
            seeds.map((seed) => Buffer.from(seed)),
            new PublicKey(programId),
          ).toBase58() as Address;
        } catch {
          address = null;
        }
        created.set(key, address);
      }
      if (address === null) throw new ProgramError('InvalidSeeds');
      return address;
    },
    findProgramAddress(seeds, programId) {
      const key = cacheKey(seeds, programId);
      let result = found.get(key);
      if (result === undefined) {
        let pda: [PublicKey, number];
        try {
          pda = PublicKey.findProgramAddressSync(
            seeds.map((seed) => Buffer.from(seed)),
            new PublicKey(programId),
          );
        } catch {
          throw new ProgramError('InvalidSeeds');
        }
        result = [pda[0].toBase58() as Address, pda[1]];
        found.set(key, result);
      }
      return [result[0], result[1]];
    },
    sha256(...chunks) {
      const hash = createHash('sha256');
      for (const chunk of chunks) hash.update(chunk);
      return new Uint8Array(hash.digest());
    },
    minimumBalance,
  };
}

/** Program id, seed lengths and seed bytes (one latin1 character per byte): unambiguous and short. */
function cacheKey(seeds: readonly Uint8Array[], programId: Address): string {
  const lengths = seeds.map((seed) => seed.length).join(',');
  const bytes = Buffer.concat(
    seeds.map((seed) => Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength)),
  );
  return `${programId}|${lengths}|${bytes.toString('latin1')}`;
}
