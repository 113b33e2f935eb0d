import { type Address, addressFromBytes, addressToBytes } from '../address.js';
import { BorshError, BorshReader, BorshWriter } from '../codec/borsh.js';
import { accountDiscriminator, hasDiscriminator } from './discriminator.js';

/** The program's `Config` account, PDA ["config"]. */
export interface ConfigAccount {
  readonly version: number;
  readonly bump: number;
  /** May update the config (not used by the service). */
  readonly authority: Address;
  /** The only signer allowed to settle. */
  readonly keeper: Address;
  /** Receives the platform fee. */
  readonly treasury: Address;
  /** Platform fee in basis points of the sale price (default 0). */
  readonly feeBps: number;
  /** Snipe window applied to every new auction, seconds (default 60). */
  readonly defaultSnipeWindowSeconds: number;
}

export const CONFIG_ACCOUNT_DISCRIMINATOR = accountDiscriminator('Config');
export const CONFIG_ACCOUNT_SIZE = 128;
export const MAX_FEE_BPS = 10_000;

export function encodeConfigAccount(c: ConfigAccount): Uint8Array {
  return new BorshWriter(CONFIG_ACCOUNT_SIZE)
    .fixed(CONFIG_ACCOUNT_DISCRIMINATOR)
    .u8(c.version)
    .u8(c.bump)
    .fixed(addressToBytes(c.authority))
    .fixed(addressToBytes(c.keeper))
    .fixed(addressToBytes(c.treasury))
    .u16(c.feeBps)
    .u32(c.defaultSnipeWindowSeconds)
    .padTo(CONFIG_ACCOUNT_SIZE)
    .toBytes();
}

export function decodeConfigAccount(data: Uint8Array): ConfigAccount {
  if (!hasDiscriminator(data, CONFIG_ACCOUNT_DISCRIMINATOR)) {
    throw new BorshError('not a Config account (discriminator mismatch)');
  }
  const r = new BorshReader(data);
  r.fixed(8);
  return {
    version: r.u8(),
    bump: r.u8(),
    authority: addressFromBytes(r.fixed(32)),
    keeper: addressFromBytes(r.fixed(32)),
    treasury: addressFromBytes(r.fixed(32)),
    feeBps: r.u16(),
    defaultSnipeWindowSeconds: r.u32(),
  };
}
