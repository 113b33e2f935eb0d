import { VersionedMessage } from '@solana/web3.js';
import type { Address } from '../../../core/address.js';
import type { SendResult, SimulationResult } from '../../runtime/bank.js';
import { sanitizeTransaction } from '../../runtime/sanitized-transaction.js';
import { describeTransactionError } from '../../runtime/transaction-error.js';
import { accountEncodingOptions, encodeAccount } from '../account-encoding.js';
import {
  addressParam,
  type Config,
  checkMinContextSlot,
  configParam,
  integer,
  optionalBoolean,
  optionalInteger,
  optionalString,
  requireAtLeastConfirmed,
  required,
  signatureParam,
} from '../params.js';
import { type RpcMethods, withContext } from '../rpc-context.js';
import { RPC_ERRORS, RpcError } from '../rpc-error.js';
import {
  decodeWireTransaction,
  encodeTransactionRecord,
  parsedInner,
  statusOf,
} from '../transaction-encoding.js';

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
/** Agave's status cache keeps 300 slots; older statuses need `searchTransactionHistory`. */
const STATUS_CACHE_SLOTS = 300;

export const transactionMethods: RpcMethods = {
  async sendTransaction(params, { bank }) {
    const config = configParam(params, 1);
    const raw = decodeWireTransaction(required(params, 0, 'transaction'), config['encoding']);
    checkMinContextSlot(config, bank.clock.slot);
    const skipPreflight = optionalBoolean(config, 'skipPreflight');
    const tx = sanitizeTransaction(raw);
    return signatureOrError(bank.submit(tx, await bank.verifySignatures(tx), { skipPreflight }));
  },

  simulateTransaction(params, { bank }) {
    const config = configParam(params, 1);
    const raw = decodeWireTransaction(required(params, 0, 'transaction'), config['encoding']);
    checkMinContextSlot(config, bank.clock.slot);
    const sigVerify = optionalBoolean(config, 'sigVerify') ?? false;
    const replaceRecentBlockhash = optionalBoolean(config, 'replaceRecentBlockhash') ?? false;
    if (sigVerify && replaceRecentBlockhash) {
      throw RPC_ERRORS.params('sigVerify may not be used with replaceRecentBlockhash');
    }
    const accounts = simulationAccountsConfig(config['accounts']);
    const result = bank.simulateTransaction(raw, { sigVerify, replaceRecentBlockhash });
    if ('kind' in result) throw signatureVerificationFailure();
    const value = simulationValue(result, optionalBoolean(config, 'innerInstructions') ?? false);
    return withContext(bank, {
      ...value,
      accounts: accounts
        ? accounts.addresses.map((key) => {
            const account = result.accountAfter(key);
            return account ? encodeAccount(account, accounts.options) : null;
          })
        : null,
      replacementBlockhash: replaceRecentBlockhash ? bank.clock.latestBlockhash() : null,
    });
  },

  requestAirdrop(params, { bank }) {
    const to = addressParam(required(params, 0, 'pubkey'));
    const lamports = integer(required(params, 1, 'lamports'), 'lamports');
    if (lamports === 0) throw RPC_ERRORS.params('airdrop request failed: lamports must be positive');
    const result = bank.requestAirdrop(to, BigInt(lamports));
    if (result.kind === 'landed') return result.record.signature;
    const reason = result.kind === 'preflightFailed' && result.simulation.err;
    throw new RpcError(
      -32603,
      `airdrop request failed: ${reason ? describeTransactionError(reason) : 'rejected'}`,
    );
  },

  getSignatureStatuses(params, { bank }) {
    const signatures = required(params, 0, 'signatures');
    if (!Array.isArray(signatures)) throw RPC_ERRORS.invalidParams('signatures must be an array');
    if (signatures.length > MAX_SIGNATURE_STATUSES) {
      throw RPC_ERRORS.params(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
    }
    const searchHistory = optionalBoolean(configParam(params, 1), 'searchTransactionHistory') ?? false;
    const oldestCached = bank.clock.slot - STATUS_CACHE_SLOTS;
    return withContext(
      bank,
      signatures.map(signatureParam).map((signature) => {
        const record = bank.store.get(signature);
        if (!record || (!searchHistory && record.slot < oldestCached)) return null;
        return {
          slot: record.slot,
          confirmations: null,
          err: record.err,
          status: statusOf(record.err),
          confirmationStatus: 'finalized',
        };
      }),
    );
  },

  getSignaturesForAddress(params, { bank }) {
    const address = addressParam(required(params, 0, 'address'));
    const config = configParam(params, 1);
    requireAtLeastConfirmed(config);
    checkMinContextSlot(config, bank.clock.slot);
    const limit = config['limit'] ?? MAX_SIGNATURES_FOR_ADDRESS;
    if (
      typeof limit !== 'number' ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_SIGNATURES_FOR_ADDRESS
    ) {
      throw RPC_ERRORS.params(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
    }
    const before = optionalSignature(config, 'before');
    const until = optionalSignature(config, 'until');
    return bank.store.forAddress(address, { before, until, limit }).map((record) => ({
      signature: record.signature,
      slot: record.slot,
      err: record.err,
      memo: null,
      blockTime: record.blockTime,
      confirmationStatus: 'finalized',
    }));
  },

  getTransaction(params, { bank }) {
    const signature = signatureParam(required(params, 0, 'signature'));
    const config = typeof params[1] === 'string' ? { encoding: params[1] } : configParam(params, 1);
    requireAtLeastConfirmed(config);
    const encoding = config['encoding'] ?? 'json';
    if (encoding !== 'json' && encoding !== 'jsonParsed' && encoding !== 'base64' && encoding !== 'base58') {
      throw RPC_ERRORS.invalidParams(
        `unknown variant \`${String(encoding)}\`, expected one of \`json\`, \`jsonParsed\`, \`base58\`, \`base64\``,
      );
    }
    const maxSupportedTransactionVersion = optionalInteger(config, 'maxSupportedTransactionVersion', 0);
    const record = bank.store.get(signature);
    return record ? encodeTransactionRecord(record, { encoding, maxSupportedTransactionVersion }) : null;
  },

  getFeeForMessage(params, { bank }) {
    const encoded = required(params, 0, 'message');
    configParam(params, 1);
    if (typeof encoded !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) {
      throw RPC_ERRORS.params('invalid base64 encoding: InvalidByte');
    }
    let message: VersionedMessage;
    try {
      message = VersionedMessage.deserialize(Buffer.from(encoded, 'base64'));
    } catch {
      throw RPC_ERRORS.params('invalid message: failed to deserialize');
    }
    const fee = bank.feeFor({
      header: message.header,
      accountKeys: message.staticAccountKeys.map((k) => k.toBase58() as Address),
      instructions: message.compiledInstructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accountIndexes: ix.accountKeyIndexes,
        data: ix.data,
      })),
    });
    return withContext(bank, bank.clock.isBlockhashValid(message.recentBlockhash) ? Number(fee) : null);
  },
};

function signatureOrError(result: SendResult): string {
  switch (result.kind) {
    case 'landed':
      return result.record.signature;
    case 'dropped':
      return result.signature;
    case 'signatureFailure':
      throw signatureVerificationFailure();
    case 'preflightFailed': {
      const err = result.simulation.err ?? 'SanitizeFailure';
      throw new RpcError(-32002, `Transaction simulation failed: ${describeTransactionError(err)}`, {
        ...simulationValue(result.simulation, false),
        accounts: null,
        replacementBlockhash: null,
      });
    }
  }
}

function signatureVerificationFailure(): RpcError {
  return new RpcError(-32003, 'Transaction signature verification failure');
}

function simulationValue(result: SimulationResult, withInner: boolean) {
  return {
    err: result.err,
    logs: result.logs,
    unitsConsumed: result.unitsConsumed,
    returnData: null,
    innerInstructions: withInner
      ? [...result.innerInstructions].map(([index, instructions]) => ({
          index,
          instructions: instructions.map((ix) => parsedInner(result, ix)),
        }))
      : null,
  };
}

function simulationAccountsConfig(value: unknown) {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw RPC_ERRORS.invalidParams('accounts must be {addresses, encoding}');
  const config = value as Config;
  const addresses = config['addresses'];
  if (!Array.isArray(addresses)) throw RPC_ERRORS.invalidParams('accounts.addresses must be an array');
  return { addresses: addresses.map(addressParam), options: accountEncodingOptions(config, 'base64') };
}

function optionalSignature(config: Config, key: string): string | undefined {
  const value = optionalString(config, key);
  return value === undefined ? undefined : signatureParam(value);
}
