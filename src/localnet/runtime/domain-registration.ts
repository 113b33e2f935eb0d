import { PublicKey } from '@solana/web3.js';
import { domainNameAccount } from '../../chain/sns.js';
import type { Address } from '../../core/address.js';
import { NAME_PROGRAM_ID, SOL_TLD_ACCOUNT, SYSTEM_PROGRAM_ID } from '../../core/program/ids.js';
import { decodeNameRecord, encodeNameRecord, NAME_RECORD_HEADER_LEN } from '../../core/sns/name-record.js';
import { solDomainLabel } from '../../core/sns/sol-label.js';
import {
  encodeFavouriteDomain,
  encodeReverseName,
  favouriteDomainKey,
  NAME_OFFERS_PROGRAM,
  REVERSE_LOOKUP_CLASS,
  reverseLookupKey,
} from '../../profiles/sns-primary-domain.js';
import { type Ledger, type LedgerAccount, RENT_EXEMPT_EPOCH } from './ledger.js';
import { minimumBalance } from './rent.js';

export class DomainRegistrationError extends Error {
  override readonly name = 'DomainRegistrationError';
}

/**
 * The name account `localnet_registerDomain` creates for `name.sol`: under the `.sol` TLD, owned
 * by `owner`, no data beyond the header, rent exempt. Throws for invalid or taken names.
 */
export function newDomainAccount(ledger: Ledger, name: string, owner: Address): [Address, LedgerAccount] {
  const label = solDomainLabel(name);
  const key = domainNameAccount(label).toBase58() as Address;
  if (ledger.get(key))
    throw new DomainRegistrationError(`${label}.sol is already registered (name account ${key})`);
  return [
    key,
    {
      lamports: minimumBalance(NAME_RECORD_HEADER_LEN),
      owner: NAME_PROGRAM_ID,
      data: encodeNameRecord({ parent: SOL_TLD_ACCOUNT, owner }),
      executable: false,
      rentEpoch: RENT_EXEMPT_EPOCH,
    },
  ];
}

/**
 * The accounts `localnet_setPrimaryDomain` writes, laid out as on mainnet: `owner`'s favourite
 * record (under the name-offers program) pointing at `name.sol`, and the domain's reverse-lookup
 * record holding its label. Throws when `name.sol` is not registered to `owner`.
 */
export function primaryDomainAccounts(
  ledger: Ledger,
  name: string,
  owner: Address,
): [Address, LedgerAccount][] {
  const label = solDomainLabel(name);
  const nameAccount = domainNameAccount(label);
  const record = ledger.get(nameAccount.toBase58() as Address);
  if (!record || decodeNameRecord(record.data).owner !== owner)
    throw new DomainRegistrationError(`${label}.sol is not registered to ${owner}`);
  const favouriteData = encodeFavouriteDomain(nameAccount);
  const reverseData = encodeNameRecord({
    parent: SYSTEM_PROGRAM_ID,
    owner: REVERSE_LOOKUP_CLASS.toBase58() as Address,
    class: REVERSE_LOOKUP_CLASS.toBase58() as Address,
    data: encodeReverseName(label),
  });
  const account = (programOwner: Address, data: Uint8Array): LedgerAccount => ({
    lamports: minimumBalance(data.length),
    owner: programOwner,
    data,
    executable: false,
    rentEpoch: RENT_EXEMPT_EPOCH,
  });
  return [
    [
      favouriteDomainKey(new PublicKey(owner)).toBase58() as Address,
      account(NAME_OFFERS_PROGRAM.toBase58() as Address, favouriteData),
    ],
    [reverseLookupKey(nameAccount).toBase58() as Address, account(NAME_PROGRAM_ID, reverseData)],
  ];
}
