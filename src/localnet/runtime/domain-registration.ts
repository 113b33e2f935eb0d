import { domainNameAccount } from '../../chain/sns.js';
import type { Address } from '../../core/address.js';
import { NAME_PROGRAM_ID, SOL_TLD_ACCOUNT } from '../../core/program/ids.js';
import { encodeNameRecord, NAME_RECORD_HEADER_LEN } from '../../core/sns/name-record.js';
import { solDomainLabel } from '../../core/sns/sol-label.js';
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
