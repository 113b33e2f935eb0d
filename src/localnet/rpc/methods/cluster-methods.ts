import { SLOTS_PER_EPOCH } from '../../runtime/well-known-ids.js';
import { checkMinContextSlot, configParam, integer, required } from '../params.js';
import { type RpcMethods, SOLANA_CORE_VERSION, withContext } from '../rpc-context.js';
import { RPC_ERRORS, RpcError } from '../rpc-error.js';

/** Slots, blockhashes and node information. Every slot is final at once on a one-node chain. */
export const clusterMethods: RpcMethods = {
  getLatestBlockhash(params, { bank }) {
    checkMinContextSlot(configParam(params, 0), bank.clock.slot);
    return withContext(bank, bank.clock.latestBlockhash());
  },

  isBlockhashValid(params, { bank }) {
    const blockhash = required(params, 0, 'blockhash');
    if (typeof blockhash !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(blockhash)) {
      throw RPC_ERRORS.invalidParam('Invalid');
    }
    checkMinContextSlot(configParam(params, 1), bank.clock.slot);
    return withContext(bank, bank.clock.isBlockhashValid(blockhash));
  },

  getBlockHeight(params, { bank }) {
    checkMinContextSlot(configParam(params, 0), bank.clock.slot);
    return bank.clock.blockHeight;
  },

  getSlot(params, { bank }) {
    checkMinContextSlot(configParam(params, 0), bank.clock.slot);
    return bank.clock.slot;
  },

  getBlockTime(params, { bank }) {
    const slot = integer(required(params, 0, 'slot'), 'slot');
    const time = bank.clock.blockTime(slot);
    if (time === undefined) throw new RpcError(-32004, `Block not available for slot ${slot}`);
    return time;
  },

  getEpochInfo(params, { bank }) {
    checkMinContextSlot(configParam(params, 0), bank.clock.slot);
    const slot = bank.clock.slot;
    return {
      absoluteSlot: slot,
      blockHeight: bank.clock.blockHeight,
      epoch: Math.floor(slot / SLOTS_PER_EPOCH),
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: bank.transactionCount,
    };
  },

  getTransactionCount(params, { bank }) {
    configParam(params, 0);
    return bank.transactionCount;
  },

  getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': 3294202862 }),
  getGenesisHash: (_params, { bank }) => bank.genesisHash,
  getHealth: () => 'ok',
  getIdentity: (_params, { identity }) => ({ identity }),
  getFirstAvailableBlock: () => 0,
  getRecentPrioritizationFees: () => [],
};
