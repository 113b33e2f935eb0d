import { InvalidDomainNameError } from '../../../core/sns/sol-label.js';
import { DomainRegistrationError, primaryDomainAccounts } from '../../runtime/domain-registration.js';
import { addressParam, required } from '../params.js';
import type { RpcMethods } from '../rpc-context.js';
import { RPC_ERRORS } from '../rpc-error.js';

/** Ten years: enough for any auction test, small enough that chain time stays a sane i64. */
const MAX_WARP_SECONDS = 10 * 365 * 24 * 3600;

/** Methods only this localnet has (the `localnet_` prefix marks them). */
export const localnetMethods: RpcMethods = {
  localnet_registerDomain(params, { bank }) {
    const name = required(params, 0, 'name');
    const owner = addressParam(required(params, 1, 'owner'));
    if (typeof name !== 'string') throw RPC_ERRORS.params('name must be a string such as "alice.sol"');
    try {
      return { nameAccount: bank.registerDomain(name, owner) };
    } catch (e) {
      if (e instanceof InvalidDomainNameError || e instanceof DomainRegistrationError)
        throw RPC_ERRORS.params(e.message);
      throw e;
    }
  },

  /** Sets `owner`'s SNS primary domain to `name` (registered to `owner`), as mainnet lays it out. */
  localnet_setPrimaryDomain(params, { bank }) {
    const owner = addressParam(required(params, 0, 'owner'));
    const name = required(params, 1, 'name');
    if (typeof name !== 'string') throw RPC_ERRORS.params('name must be a string such as "alice.sol"');
    try {
      const accounts = primaryDomainAccounts(bank.ledger, name, owner);
      for (const [key, account] of accounts) bank.ledger.set(key, account);
      bank.version++;
      return { favouriteDomain: accounts[0]![0], reverseLookup: accounts[1]![0] };
    } catch (e) {
      if (e instanceof InvalidDomainNameError || e instanceof DomainRegistrationError)
        throw RPC_ERRORS.params(e.message);
      throw e;
    }
  },

  localnet_warpTime(params, { bank }) {
    const seconds = required(params, 0, 'seconds');
    if (
      typeof seconds !== 'number' ||
      !Number.isSafeInteger(seconds) ||
      seconds < 1 ||
      seconds > MAX_WARP_SECONDS
    ) {
      throw RPC_ERRORS.params(`seconds must be an integer between 1 and ${MAX_WARP_SECONDS}`);
    }
    bank.warpTime(seconds);
    return { unixTimestamp: bank.clock.unixTimestamp, slot: bank.clock.slot };
  },

  localnet_getTime: (_params, { bank }) => ({
    unixTimestamp: bank.clock.unixTimestamp,
    slot: bank.clock.slot,
  }),

  localnet_getKeeper: (_params, { info }) => ({ ...info }),
};
