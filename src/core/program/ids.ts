import type { Address } from '../address.js';

/** The auction program. Its reference implementation is `src/program/`; its interface is docs/program.md. */
export const AUCTION_PROGRAM_ID = 'Dw5imrnJEkSoQjaexAwcKeaSVuAKNXQ6nnf6bAYHZbUq' as Address;
/** SPL Name Service, as on mainnet. */
export const NAME_PROGRAM_ID = 'namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX' as Address;
/** The `.sol` TLD name account (parent of every second-level `.sol` domain). */
export const SOL_TLD_ACCOUNT = '58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx' as Address;
/** The root TLD account that is the parent of `.sol` itself. */
export const ROOT_TLD_ACCOUNT = 'ZoAhWEqTVqHVqupYmEanDobY7dee5YKbQox9BNASZzU' as Address;
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111' as Address;
export const COMPUTE_BUDGET_PROGRAM_ID = 'ComputeBudget111111111111111111111111111111' as Address;

const utf8 = (s: string) => new TextEncoder().encode(s);

/** PDA seeds. Auction: ["auction", seller, nonce u64 LE]; Config: ["config"]. */
export const SEEDS = {
  config: utf8('config'),
  auction: utf8('auction'),
} as const;

export function nonceSeed(nonce: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, nonce, true);
  return out;
}
