/**
 * A wallet's SNS primary ("favourite") domain, read the way Bonfida's `getFavoriteDomain` does:
 * the favourite PDA `["favourite_domain", owner]` under the name-offers program holds
 * `{tag u8, nameAccount [32]}`; the name comes from the name account's reverse-lookup record
 * (`u32 len ‖ utf8 label` after the 96-byte header). A primary whose domain has since changed
 * hands ("stale") is not the wallet's name, so it counts as none.
 */
import { type Connection, PublicKey } from '@solana/web3.js';
import { nameAccountKey } from '../chain/sns.js';
import { decodeNameRecord, NAME_RECORD_HEADER_LEN } from '../core/sns/name-record.js';
import { hashedName } from '../core/sns/sol-label.js';

export const NAME_OFFERS_PROGRAM = new PublicKey('85iDfUvr3HJyLM2zcq5BXSiDvUWfw6cSE1FfNBo8Ap29');
export const REVERSE_LOOKUP_CLASS = new PublicKey('33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z');
const FAVOURITE_SEED = Buffer.from('favourite_domain');
const FAVOURITE_DATA_LEN = 33;

export function favouriteDomainKey(owner: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([FAVOURITE_SEED, owner.toBytes()], NAME_OFFERS_PROGRAM)[0];
}

/** `getReverseKeyFromDomainKey` for a second-level domain. */
export function reverseLookupKey(nameAccount: PublicKey): PublicKey {
  return nameAccountKey(hashedName(nameAccount.toBase58()), REVERSE_LOOKUP_CLASS);
}

export function encodeFavouriteDomain(nameAccount: PublicKey): Uint8Array {
  const data = new Uint8Array(FAVOURITE_DATA_LEN);
  data[0] = 1;
  data.set(nameAccount.toBytes(), 1);
  return data;
}

/** The reverse record's data after the header: `u32 LE len ‖ utf8 label`. */
export function encodeReverseName(label: string): Uint8Array {
  const utf8 = Buffer.from(label, 'utf8');
  const data = Buffer.alloc(4 + utf8.length);
  data.writeUInt32LE(utf8.length, 0);
  utf8.copy(data, 4);
  return data;
}

/** "alice.sol", or null when the wallet has no (current) primary domain. */
export async function readPrimaryDomain(connection: Connection, owner: PublicKey): Promise<string | null> {
  const favourite = await connection.getAccountInfo(favouriteDomainKey(owner), 'confirmed');
  if (!favourite?.owner.equals(NAME_OFFERS_PROGRAM) || favourite.data.length < FAVOURITE_DATA_LEN)
    return null;
  const nameAccount = new PublicKey(favourite.data.subarray(1, FAVOURITE_DATA_LEN));
  const [name, reverse] = await connection.getMultipleAccountsInfo(
    [nameAccount, reverseLookupKey(nameAccount)],
    'confirmed',
  );
  if (!name || !reverse || reverse.data.length < NAME_RECORD_HEADER_LEN + 4) return null;
  if (decodeNameRecord(name.data).owner !== owner.toBase58()) return null;
  const body = Buffer.from(reverse.data.subarray(NAME_RECORD_HEADER_LEN));
  const length = body.readUInt32LE(0);
  if (length === 0 || 4 + length > body.length) return null;
  return `${body.subarray(4, 4 + length).toString('utf8')}.sol`;
}
