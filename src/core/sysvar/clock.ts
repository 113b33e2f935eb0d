import { BorshReader } from '../codec/borsh.js';

/** The Clock sysvar account (`SysvarC1ock11111111111111111111111111111111`). */
export const CLOCK_SYSVAR_ID = 'SysvarC1ock11111111111111111111111111111111';
export const CLOCK_SYSVAR_SIZE = 40;

export interface ClockSysvar {
  readonly slot: bigint;
  readonly epochStartTimestamp: bigint;
  readonly epoch: bigint;
  readonly leaderScheduleEpoch: bigint;
  /** Chain time, Unix seconds: what auction rules are decided against. */
  readonly unixTimestamp: bigint;
}

/** Layout as in solana-program's `Clock`: slot u64, epoch_start_timestamp i64, epoch u64, leader_schedule_epoch u64, unix_timestamp i64. */
export function decodeClockSysvar(data: Uint8Array): ClockSysvar {
  const r = new BorshReader(data);
  return {
    slot: r.u64(),
    epochStartTimestamp: r.i64(),
    epoch: r.u64(),
    leaderScheduleEpoch: r.u64(),
    unixTimestamp: r.i64(),
  };
}

export function encodeClockSysvar(c: ClockSysvar): Uint8Array {
  const out = new Uint8Array(CLOCK_SYSVAR_SIZE);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, c.slot, true);
  view.setBigInt64(8, c.epochStartTimestamp, true);
  view.setBigUint64(16, c.epoch, true);
  view.setBigUint64(24, c.leaderScheduleEpoch, true);
  view.setBigInt64(32, c.unixTimestamp, true);
  return out;
}
