import { type LedgerAccount, RENT_EXEMPT_EPOCH } from './ledger.js';
import { minimumBalance } from './rent.js';
import { SLOTS_PER_EPOCH, SYSVAR_OWNER_ID } from './well-known-ids.js';

/** The Clock sysvar: slot, epoch start timestamp, epoch, leader schedule epoch, unix timestamp. */
export function clockSysvarAccount(slot: number, unixTimestamp: number): LedgerAccount {
  const data = new Uint8Array(40);
  const view = new DataView(data.buffer);
  const epoch = BigInt(Math.floor(slot / SLOTS_PER_EPOCH));
  view.setBigUint64(0, BigInt(slot), true);
  view.setBigInt64(8, BigInt(unixTimestamp), true);
  view.setBigUint64(16, epoch, true);
  view.setBigUint64(24, epoch + 1n, true);
  view.setBigInt64(32, BigInt(unixTimestamp), true);
  return sysvar(data);
}

/** The Rent sysvar: 3480 lamports per byte-year, exemption threshold 2.0 years, 50% burnt. */
export function rentSysvarAccount(): LedgerAccount {
  const data = new Uint8Array(17);
  const view = new DataView(data.buffer);
  view.setBigUint64(0, 3480n, true);
  view.setFloat64(8, 2.0, true);
  data[16] = 50;
  return sysvar(data);
}

function sysvar(data: Uint8Array): LedgerAccount {
  return {
    lamports: minimumBalance(data.length),
    owner: SYSVAR_OWNER_ID,
    data,
    executable: false,
    rentEpoch: RENT_EXEMPT_EPOCH,
  };
}
