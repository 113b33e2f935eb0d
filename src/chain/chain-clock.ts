import { type Connection, PublicKey } from '@solana/web3.js';
import { CLOCK_SYSVAR_ID, type ClockSysvar, decodeClockSysvar } from '../core/sysvar/clock.js';
import { JsonRpcAccounts } from './json-rpc-accounts.js';

export const CLOCK_SYSVAR = new PublicKey(CLOCK_SYSVAR_ID);

/**
 * Chain time from the Clock sysvar, which every RPC serves (the localnet included). `now()` may
 * answer from a cache of at most `maxAgeMs` for list reads; decisions about a single auction
 * read the clock in the same request as the auction (`readWithClock`) so they are never stale.
 * Both reads go through the lean JSON-RPC reader (same answers as the connection, less CPU).
 */
export class ChainClock {
  private cached: { clock: ClockSysvar; at: number } | null = null;
  private inflight: Promise<ClockSysvar> | null = null;
  private readonly accounts: JsonRpcAccounts;

  constructor(
    connection: Pick<Connection, 'rpcEndpoint'>,
    private readonly maxAgeMs = 400,
    private readonly wallMs: () => number = Date.now,
  ) {
    this.accounts = new JsonRpcAccounts(connection.rpcEndpoint);
  }

  /** Chain Unix seconds. */
  async now(): Promise<bigint> {
    return (await this.clock()).unixTimestamp;
  }

  /** Chain Unix seconds read now, bypassing the cache: for decisions that send transactions. */
  async freshNow(): Promise<bigint> {
    return (await this.fetch()).unixTimestamp;
  }

  async clock(): Promise<ClockSysvar> {
    if (this.cached && this.wallMs() - this.cached.at <= this.maxAgeMs) return this.cached.clock;
    this.inflight ??= this.fetch().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /** Reads accounts and the clock in one RPC call (one consistent slot). */
  async readWithClock(addresses: PublicKey[]) {
    const infos = await this.accounts.getMultipleAccountsInfo([...addresses, CLOCK_SYSVAR], 'confirmed');
    const clockInfo = infos[infos.length - 1];
    if (!clockInfo) throw new Error('the RPC did not return the Clock sysvar');
    const clock = decodeClockSysvar(clockInfo.data);
    this.remember(clock);
    return { accounts: infos.slice(0, -1), clock };
  }

  private async fetch(): Promise<ClockSysvar> {
    const [info] = await this.accounts.getMultipleAccountsInfo([CLOCK_SYSVAR], 'confirmed');
    if (!info) throw new Error('the RPC did not return the Clock sysvar');
    const clock = decodeClockSysvar(info.data);
    this.remember(clock);
    return clock;
  }

  private remember(clock: ClockSysvar): void {
    this.cached = { clock, at: this.wallMs() };
  }
}
