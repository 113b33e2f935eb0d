/**
 * SNS (Bonfida / SPL name service) helpers for web3.js code: derivation of `.sol` name accounts,
 * the name record layout, the Transfer instruction and an owner lookup. Mirrors
 * `@bonfida/spl-name-service` without depending on it at runtime.
 */
import { type Connection, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Address } from '../core/address.js';
import { NAME_PROGRAM_ID, SOL_TLD_ACCOUNT } from '../core/program/ids.js';
import { decodeNameRecord, type NameRecord } from '../core/sns/name-record.js';
import { hashedName, solDomainLabel } from '../core/sns/sol-label.js';

export const NAME_PROGRAM = new PublicKey(NAME_PROGRAM_ID);
export const SOL_TLD = new PublicKey(SOL_TLD_ACCOUNT);
const ZERO_SEED = new Uint8Array(32);

/** `getNameAccountKeySync(hashed, class, parent)`: PDA of `[hashed, class ?? 0³², parent ?? 0³²]`. */
export function nameAccountKey(hashed: Uint8Array, nameClass?: PublicKey, parent?: PublicKey): PublicKey {
  const seeds = [hashed, nameClass?.toBytes() ?? ZERO_SEED, parent?.toBytes() ?? ZERO_SEED];
  return PublicKey.findProgramAddressSync(seeds, NAME_PROGRAM)[0];
}

/**
 * Name account of a second-level `.sol` domain ("alice.sol" or "alice"), equal to Bonfida's
 * `getDomainKeySync(domain).pubkey`. Throws InvalidDomainNameError for anything else.
 */
export function domainNameAccount(domain: string): PublicKey {
  return nameAccountKey(hashedName(solDomainLabel(domain)), undefined, SOL_TLD);
}

export function decodeNameRegistry(data: Uint8Array): NameRecord {
  return decodeNameRecord(data);
}

/** SNS `Transfer{new_owner}` (tag 2) for a record without class: keys `[name (w), currentOwner (s)]`. */
export function snsTransferInstruction(
  nameAccount: PublicKey,
  newOwner: PublicKey,
  currentOwner: PublicKey,
): TransactionInstruction {
  const data = Buffer.alloc(33);
  data[0] = 2;
  data.set(newOwner.toBytes(), 1);
  return new TransactionInstruction({
    programId: NAME_PROGRAM,
    keys: [
      { pubkey: nameAccount, isSigner: false, isWritable: true },
      { pubkey: currentOwner, isSigner: true, isWritable: false },
    ],
    data,
  });
}

/** Current owner of a `.sol` domain, or null when its name account does not exist. */
export async function readDomainOwner(connection: Connection, domain: string): Promise<Address | null> {
  const account = await connection.getAccountInfo(domainNameAccount(domain));
  if (!account?.owner.equals(NAME_PROGRAM)) return null;
  return decodeNameRecord(account.data).owner;
}
