/**
 * Chain time straight from the Clock sysvar over JSON-RPC, for the last stretch before a planned
 * bid: it spends none of the key's API read budget, and every instance waiting on a planned second
 * shares one read in flight (answers are reused for `maxAgeMs`).
 */
import type { Connection } from '@solana/web3.js';
import { CLOCK_SYSVAR } from '../../src/chain/chain-clock.js';
import { decodeClockSysvar } from '../../src/core/sysvar/clock.js';

export class RpcChainTime {
  #last: { chainMs: number; at: number } | null = null;
  #inflight: Promise<number> | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly maxAgeMs = 40,
  ) {}

  /** The Clock's Unix time of the current slot, in ms (whole seconds). */
  nowMs(): Promise<number> {
    if (this.#last && Date.now() - this.#last.at <= this.maxAgeMs) return Promise.resolve(this.#last.chainMs);
    this.#inflight ??= this.#read().finally(() => {
      this.#inflight = null;
    });
    return this.#inflight;
  }

  async #read(): Promise<number> {
    const info = await this.connection.getAccountInfo(CLOCK_SYSVAR, 'processed');
    if (!info) throw new Error('the RPC did not return the Clock sysvar');
    const chainMs = Number(decodeClockSysvar(info.data).unixTimestamp) * 1000;
    this.#last = { chainMs, at: Date.now() };
    return chainMs;
  }
}
