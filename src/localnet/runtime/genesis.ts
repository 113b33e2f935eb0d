import { randomBytes } from 'node:crypto';
import { type Keypair, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Address } from '../../core/address.js';
import {
  CONFIG_ACCOUNT_SIZE,
  decodeConfigAccount,
  encodeConfigAccount,
} from '../../core/program/config-account.js';
import {
  AUCTION_PROGRAM_ID,
  NAME_PROGRAM_ID,
  ROOT_TLD_ACCOUNT,
  SEEDS,
  SOL_TLD_ACCOUNT,
} from '../../core/program/ids.js';
import { encodeNameRecord, NAME_RECORD_HEADER_LEN } from '../../core/sns/name-record.js';
import type { ProgramRegistry } from './invocation.js';
import { Ledger, type LedgerAccount, RENT_EXEMPT_EPOCH } from './ledger.js';
import { minimumBalance } from './rent.js';
import { rentSysvarAccount } from './sysvars.js';
import { BPF_LOADER_UPGRADEABLE_ID, NATIVE_LOADER_ID, SYSVAR_RENT_ID } from './well-known-ids.js';

const LAMPORTS_PER_SOL = 1_000_000_000n;
export const KEEPER_GENESIS_LAMPORTS = 1_000n * LAMPORTS_PER_SOL;
/** Kept below 2^53 lamports so every balance the RPC prints as a JSON number stays exact. */
export const FAUCET_GENESIS_LAMPORTS = 1_000_000n * LAMPORTS_PER_SOL;
/** Owner of the `.sol` TLD on mainnet (the registrar's central state). */
export const SOL_TLD_OWNER = '33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z' as Address;
export const DEFAULT_SNIPE_WINDOW_SECONDS = 60;

export interface GenesisConfig {
  readonly programs: ProgramRegistry;
  readonly keeper: Keypair;
  readonly faucet: Keypair;
  readonly treasury: Address;
  readonly feeBps: number;
}

export const configAddress = (): [Address, number] => {
  const [pda, bump] = PublicKey.findProgramAddressSync([SEEDS.config], new PublicKey(AUCTION_PROGRAM_ID));
  return [pda.toBase58() as Address, bump];
};

export function newGenesisHash(): string {
  return bs58.encode(randomBytes(32));
}

/** The accounts a fresh localnet starts with. */
export function genesisLedger(config: GenesisConfig): Ledger {
  const ledger = new Ledger();
  const put = (key: Address, owner: Address, lamports: bigint, data: Uint8Array, executable = false) =>
    ledger.set(key, {
      lamports,
      owner,
      data,
      executable,
      rentEpoch: RENT_EXEMPT_EPOCH,
    } satisfies LedgerAccount);

  for (const program of config.programs.values()) {
    if (program.builtin) {
      put(program.id, NATIVE_LOADER_ID, 1n, new TextEncoder().encode(program.id), true);
    } else {
      put(
        program.id,
        BPF_LOADER_UPGRADEABLE_ID,
        minimumBalance(36),
        upgradeableProgramData(program.id),
        true,
      );
    }
  }
  ledger.set(SYSVAR_RENT_ID, rentSysvarAccount());
  put(
    SOL_TLD_ACCOUNT,
    NAME_PROGRAM_ID,
    minimumBalance(NAME_RECORD_HEADER_LEN),
    encodeNameRecord({ parent: ROOT_TLD_ACCOUNT, owner: SOL_TLD_OWNER }),
  );
  const keeper = config.keeper.publicKey.toBase58() as Address;
  const system = '11111111111111111111111111111111' as Address;
  put(keeper, system, KEEPER_GENESIS_LAMPORTS, new Uint8Array(0));
  put(config.faucet.publicKey.toBase58() as Address, system, FAUCET_GENESIS_LAMPORTS, new Uint8Array(0));
  // Funded to the rent-exempt minimum so that small fee payments to it never leave it rent paying.
  put(config.treasury, system, minimumBalance(0), new Uint8Array(0));
  const [config_, bump] = configAddress();
  const configData = encodeConfigAccount({
    version: 1,
    bump,
    authority: keeper,
    keeper,
    treasury: config.treasury,
    feeBps: config.feeBps,
    defaultSnipeWindowSeconds: DEFAULT_SNIPE_WINDOW_SECONDS,
  });
  put(config_, AUCTION_PROGRAM_ID, minimumBalance(CONFIG_ACCOUNT_SIZE), configData);
  return ledger;
}

/** `UpgradeableLoaderState::Program { programdata_address }`, what an upgradeable program account holds. */
function upgradeableProgramData(programId: Address): Uint8Array {
  const [programData] = PublicKey.findProgramAddressSync(
    [new PublicKey(programId).toBytes()],
    new PublicKey(BPF_LOADER_UPGRADEABLE_ID),
  );
  const data = new Uint8Array(36);
  data[0] = 2;
  data.set(programData.toBytes(), 4);
  return data;
}

/**
 * Makes `keeper` the Config's keeper and authority (a snapshot restarted with another keeper
 * file), funding it like genesis does when it has nothing.
 */
export function installKeeper(ledger: Ledger, keeper: Address): void {
  const [key] = configAddress();
  const account = ledger.get(key);
  if (account) {
    const config = decodeConfigAccount(account.data);
    if (config.keeper !== keeper || config.authority !== keeper) {
      ledger.set(key, { ...account, data: encodeConfigAccount({ ...config, keeper, authority: keeper }) });
    }
  }
  if (!ledger.get(keeper)) {
    ledger.set(keeper, {
      lamports: KEEPER_GENESIS_LAMPORTS,
      owner: '11111111111111111111111111111111' as Address,
      data: new Uint8Array(0),
      executable: false,
      rentEpoch: RENT_EXEMPT_EPOCH,
    });
  }
}
