import { type Address, isAddress } from '../../core/address.js';
import { RPC_ERRORS, RpcError } from './rpc-error.js';

export type Params = readonly unknown[];
export type Config = Readonly<Record<string, unknown>>;

const COMMITMENTS = new Set([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
]);

/** JSON-RPC params: Solana methods take positional arrays. */
export function positional(params: unknown): Params {
  if (params === undefined || params === null) return [];
  if (Array.isArray(params)) return params;
  throw RPC_ERRORS.invalidParams('invalid type: map, expected a sequence');
}

export function required(params: Params, index: number, what: string): unknown {
  const value = params[index];
  if (value === undefined) throw RPC_ERRORS.invalidParams(`missing ${what} (parameter ${index})`);
  return value;
}

export function addressParam(value: unknown): Address {
  if (typeof value !== 'string')
    throw RPC_ERRORS.invalidParams('invalid type: expected a base58 public key string');
  if (!isAddress(value)) throw RPC_ERRORS.invalidParam('Invalid');
  return value;
}

export function signatureParam(value: unknown): string {
  if (typeof value !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(value)) {
    throw RPC_ERRORS.invalidParam('Invalid');
  }
  return value;
}

/** The optional config object at `index`, with its commitment checked. */
export function configParam(params: Params, index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw RPC_ERRORS.invalidParams(`invalid type: expected a config object (parameter ${index})`);
  }
  const config = value as Config;
  const commitment = config['commitment'];
  if (commitment !== undefined && (typeof commitment !== 'string' || !COMMITMENTS.has(commitment))) {
    throw RPC_ERRORS.invalidParams(`unknown commitment ${JSON.stringify(commitment)}`);
  }
  return config;
}

export function optionalString(config: Config, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw RPC_ERRORS.invalidParams(`${key} must be a string`);
  return value;
}

export function optionalBoolean(config: Config, key: string): boolean | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw RPC_ERRORS.invalidParams(`${key} must be a boolean`);
  return value;
}

export function integer(value: unknown, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) {
    throw RPC_ERRORS.invalidParams(`${what} must be an integer between 0 and ${max}`);
  }
  return value;
}

export function optionalInteger(config: Config, key: string, max?: number): number | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  return integer(value, key, max);
}

/** `minContextSlot`: the node answers only once it has reached that slot. */
export function checkMinContextSlot(config: Config, slot: number): void {
  const min = optionalInteger(config, 'minContextSlot');
  if (min !== undefined && min > slot) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: slot });
  }
}

/** getTransaction and getSignaturesForAddress refuse `processed`. */
export function requireAtLeastConfirmed(config: Config): void {
  if (config['commitment'] === 'processed' || config['commitment'] === 'recent') {
    throw RPC_ERRORS.params('Method does not support commitment below `confirmed`');
  }
}
