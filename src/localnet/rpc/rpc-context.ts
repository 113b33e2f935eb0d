import type { Address } from '../../core/address.js';
import type { Bank } from '../runtime/bank.js';
import type { Params } from './params.js';

export interface LocalnetInfo {
  readonly keeper: Address;
  readonly treasury: Address;
  readonly programId: Address;
  readonly config: Address;
}

export interface RpcContext {
  readonly bank: Bank;
  /** The node's identity key (getIdentity). */
  readonly identity: Address;
  readonly info: LocalnetInfo;
}

export type RpcHandler = (params: Params, ctx: RpcContext) => unknown;
export type RpcMethods = Readonly<Record<string, RpcHandler>>;

/** The version this localnet reports; its RPC follows Agave 2.2. */
export const SOLANA_CORE_VERSION = '2.2.20';

/** `{context, value}`, the wrapper of every "with context" result. */
export function withContext<T>(
  bank: Bank,
  value: T,
): { context: { slot: number; apiVersion: string }; value: T } {
  return { context: { slot: bank.clock.slot, apiVersion: SOLANA_CORE_VERSION }, value };
}
