import type { Address } from '../../../core/address.js';
import { minimumBalance } from '../../runtime/rent.js';
import { MAX_ACCOUNT_DATA_LENGTH } from '../../runtime/transaction-account.js';
import { accountEncodingOptions, encodeAccount } from '../account-encoding.js';
import {
  addressParam,
  checkMinContextSlot,
  configParam,
  integer,
  optionalBoolean,
  required,
} from '../params.js';
import { matchesFilters, parseAccountFilters } from '../program-account-filters.js';
import { type RpcMethods, withContext } from '../rpc-context.js';
import { RPC_ERRORS } from '../rpc-error.js';

const MAX_MULTIPLE_ACCOUNTS = 100;

export const accountMethods: RpcMethods = {
  getAccountInfo(params, { bank }) {
    const key = addressParam(required(params, 0, 'pubkey'));
    const config = configParam(params, 1);
    checkMinContextSlot(config, bank.clock.slot);
    const options = accountEncodingOptions(config);
    const account = bank.ledger.get(key);
    return withContext(bank, account ? encodeAccount(account, options) : null);
  },

  getMultipleAccounts(params, { bank }) {
    const keys = required(params, 0, 'pubkeys');
    if (!Array.isArray(keys)) throw RPC_ERRORS.invalidParams('pubkeys must be an array');
    if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
      throw RPC_ERRORS.params(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    }
    const addresses = keys.map(addressParam);
    const config = configParam(params, 1);
    checkMinContextSlot(config, bank.clock.slot);
    const options = accountEncodingOptions(config);
    return withContext(
      bank,
      addresses.map((key) => {
        const account = bank.ledger.get(key);
        return account ? encodeAccount(account, options) : null;
      }),
    );
  },

  getProgramAccounts(params, { bank }) {
    const program = addressParam(required(params, 0, 'program id'));
    const config = configParam(params, 1);
    checkMinContextSlot(config, bank.clock.slot);
    const options = accountEncodingOptions(config);
    const filters = parseAccountFilters(config['filters']);
    const result: { pubkey: Address; account: ReturnType<typeof encodeAccount> }[] = [];
    for (const [pubkey, account] of bank.ledger.ownedBy(program)) {
      if (matchesFilters(account.data, filters))
        result.push({ pubkey, account: encodeAccount(account, options) });
    }
    return optionalBoolean(config, 'withContext') ? withContext(bank, result) : result;
  },

  getBalance(params, { bank }) {
    const key = addressParam(required(params, 0, 'pubkey'));
    checkMinContextSlot(configParam(params, 1), bank.clock.slot);
    return withContext(bank, Number(bank.ledger.get(key)?.lamports ?? 0n));
  },

  getMinimumBalanceForRentExemption(params) {
    const length = integer(required(params, 0, 'data length'), 'data length', MAX_ACCOUNT_DATA_LENGTH);
    configParam(params, 1);
    return Number(minimumBalance(length));
  },

  // There is no SPL Token program on the localnet, so no mint exists: the SNS SDK reads this
  // error as "the domain is not tokenized".
  getTokenLargestAccounts(params) {
    addressParam(required(params, 0, 'mint'));
    throw RPC_ERRORS.invalidParam('could not find account');
  },

  getTokenAccountsByOwner(params, { bank }) {
    addressParam(required(params, 0, 'owner'));
    const filter = required(params, 1, 'mint or programId filter');
    if (typeof filter !== 'object' || filter === null)
      throw RPC_ERRORS.invalidParams('expected {mint} or {programId}');
    return withContext(bank, []);
  },
};
