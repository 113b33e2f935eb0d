/** One-RPC reads of an auction together with the chain clock, so a decision never uses stale time. */
import { type AccountInfo, PublicKey } from '@solana/web3.js';
import { AUCTION_PROGRAM, type AuctionWithAddress, findConfigAddress } from '../chain/auction-accounts.js';
import type { Address } from '../core/address.js';
import { AppError } from '../core/errors.js';
import { decodeAuctionAccount, isAuctionAccountData } from '../core/program/auction-account.js';
import { type ConfigAccount, decodeConfigAccount } from '../core/program/config-account.js';
import type { AuctionDeps } from './auction-deps.js';

export const CONFIG_ADDRESS = new PublicKey(findConfigAddress().address);

export interface AuctionRead {
  readonly auction: AuctionWithAddress;
  /** The extra accounts asked for, in order (null when absent). */
  readonly extras: (AccountInfo<Buffer> | null)[];
  /** Chain time, Unix seconds, of the same slot. */
  readonly now: bigint;
}

function decodeAuction(address: Address, info: AccountInfo<Buffer> | null): AuctionWithAddress | null {
  if (!info?.owner.equals(AUCTION_PROGRAM) || !isAuctionAccountData(info.data)) return null;
  return { ...decodeAuctionAccount(info.data), address };
}

/** The auction, `extras` and the clock in one getMultipleAccounts; 404 NOT_FOUND when there is no auction. */
export async function readAuction(
  deps: Pick<AuctionDeps, 'chainClock'>,
  auctionId: Address,
  extras: readonly PublicKey[] = [],
): Promise<AuctionRead> {
  const { accounts, clock } = await deps.chainClock.readWithClock([new PublicKey(auctionId), ...extras]);
  const auction = decodeAuction(auctionId, accounts[0] ?? null);
  if (!auction) throw new AppError('NOT_FOUND', `auction ${auctionId} does not exist on chain`);
  return { auction, extras: accounts.slice(1), now: clock.unixTimestamp };
}

/** The program's Config, or a 500 naming the misconfiguration (the program is not initialized). */
export function decodeConfig(info: AccountInfo<Buffer> | null | undefined): ConfigAccount {
  if (!info?.owner.equals(AUCTION_PROGRAM)) {
    throw new AppError('INTERNAL_ERROR', 'the auction program has no Config account on this chain');
  }
  return decodeConfigAccount(info.data);
}

export const lamportsOfAccount = (info: AccountInfo<Buffer> | null | undefined): bigint =>
  BigInt(info?.lamports ?? 0);
