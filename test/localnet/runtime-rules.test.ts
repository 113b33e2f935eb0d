/**
 * The account rules the runtime enforces after every program, with toy programs that break them.
 * These drive the Bank in-process: the rules belong to the runtime, not to the RPC.
 */
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Address } from '../../src/core/address.js';
import { builtinPrograms } from '../../src/localnet/programs/builtin-programs.js';
import { Bank } from '../../src/localnet/runtime/bank.js';
import { genesisLedger, newGenesisHash } from '../../src/localnet/runtime/genesis.js';
import type { ProgramEntry } from '../../src/localnet/runtime/invocation.js';
import { type ProgramEntrypoint, ProgramError } from '../../src/localnet/runtime/program-abi.js';
import { SlotClock } from '../../src/localnet/runtime/slot-clock.js';
import { TransactionStore } from '../../src/localnet/runtime/transaction-store.js';

const SYSTEM = '11111111111111111111111111111111' as Address;
const id = () => Keypair.generate().publicKey.toBase58() as Address;
const TOY = id();
const OTHER_TOY = id();

function systemTransfer(from: Address, to: Address, lamports: bigint, fromSigns = true) {
  const data = new Uint8Array(12);
  new DataView(data.buffer).setUint32(0, 2, true);
  new DataView(data.buffer).setBigUint64(4, lamports, true);
  return {
    programId: SYSTEM,
    accounts: [
      { key: from, isSigner: fromSigns, isWritable: true },
      { key: to, isSigner: false, isWritable: true },
    ],
    data,
  };
}

/** One toy program whose behaviour is picked by the first data byte. */
const toy: ProgramEntrypoint = (ctx) => {
  const [a, b] = ctx.accounts;
  switch (ctx.data[0]) {
    case 0: // debit an account it does not own
      a!.lamports -= 1n;
      b!.lamports += 1n;
      return;
    case 1: // write data of an account (owned or not, writable or not)
      a!.data[0] = (a!.data[0] ?? 0) ^ 1;
      return;
    case 2: // create lamports from nothing
      a!.lamports += 1n;
      return;
    case 3: // sign for someone who did not sign
      ctx.invoke(systemTransfer(a!.key, b!.key, 1_000_000n));
      return;
    case 4: {
      // pay from its own PDA, signing with the PDA's seeds
      const [, bump] = ctx.syscalls.findProgramAddress([new TextEncoder().encode('vault')], ctx.programId);
      ctx.invoke(systemTransfer(a!.key, b!.key, 1_000_000n), [
        [new TextEncoder().encode('vault'), Uint8Array.of(bump)],
      ]);
      return;
    }
    case 5: // duplicate keys are one account object
      if (a !== b) throw new ProgramError('InvalidArgument', 'duplicates are different objects');
      ctx.log('same object');
      return;
    case 6: // swallow a failing CPI
      try {
        ctx.invoke(systemTransfer(a!.key, b!.key, 10n ** 18n));
      } catch {
        ctx.log('caught');
      }
      return;
    case 7: // call the other toy, which calls back
      ctx.invoke({
        programId: OTHER_TOY,
        accounts: [{ key: TOY, isSigner: false, isWritable: false }],
        data: Uint8Array.of(7),
      });
      return;
    case 8: // give away an account that still holds data
      a!.owner = SYSTEM;
      return;
    default:
      throw new TypeError('boom');
  }
};

const otherToy: ProgramEntrypoint = (ctx) => {
  ctx.invoke({ programId: TOY, accounts: [], data: Uint8Array.of(7) });
};

let bank: Bank;
let payer: Keypair;

beforeEach(() => {
  const programs = new Map(builtinPrograms());
  for (const entry of [
    { id: TOY, entrypoint: toy, builtin: false },
    { id: OTHER_TOY, entrypoint: otherToy, builtin: false },
  ] satisfies ProgramEntry[]) {
    programs.set(entry.id, entry);
  }
  const faucet = Keypair.generate();
  const genesisHash = newGenesisHash();
  const ledger = genesisLedger({ programs, keeper: Keypair.generate(), faucet, treasury: id(), feeBps: 0 });
  bank = new Bank({
    ledger,
    clock: SlotClock.genesis(genesisHash, Date.now),
    store: new TransactionStore(),
    programs,
    faucet,
    genesisHash,
  });
  payer = Keypair.generate();
  bank.requestAirdrop(payer.publicKey.toBase58() as Address, 10n ** 10n);
});

function put(key: Address, owner: Address, lamports: bigint, data = new Uint8Array(0)) {
  bank.ledger.set(key, { lamports, owner, data, executable: false, rentEpoch: 0n });
}

function run(
  data: number,
  keys: { pubkey: Address; isSigner?: boolean; isWritable?: boolean }[],
  signers: Keypair[] = [],
) {
  const tx = new Transaction({ feePayer: payer.publicKey, ...bank.clock.latestBlockhash() }).add(
    new TransactionInstruction({
      programId: new PublicKey(TOY),
      keys: keys.map((k) => ({
        pubkey: new PublicKey(k.pubkey),
        isSigner: k.isSigner ?? false,
        isWritable: k.isWritable ?? true,
      })),
      data: Buffer.from([data]),
    }),
  );
  tx.sign(payer, ...signers);
  const result = bank.sendTransaction(tx.serialize(), { skipPreflight: true });
  if (result.kind !== 'landed') throw new Error(`not executed: ${JSON.stringify(result)}`);
  return result.record;
}

const failure = (error: unknown) => ({ InstructionError: [0, error] });

describe('runtime account rules', () => {
  it('only the owner debits lamports, writes data, and only writable accounts change', () => {
    const [victim, dest, foreign, mine] = [id(), id(), id(), id()];
    put(victim, SYSTEM, 10n ** 9n);
    put(dest, SYSTEM, 10n ** 9n);
    put(foreign, OTHER_TOY, 10n ** 9n, new Uint8Array(4));
    put(mine, TOY, 10n ** 9n, new Uint8Array(4));
    expect(run(0, [{ pubkey: victim }, { pubkey: dest }]).err).toEqual(
      failure('ExternalAccountLamportSpend'),
    );
    expect(run(1, [{ pubkey: foreign }]).err).toEqual(failure('ExternalAccountDataModified'));
    expect(run(1, [{ pubkey: mine, isWritable: false }]).err).toEqual(failure('ReadonlyDataModified'));
    expect(run(2, [{ pubkey: mine }]).err).toEqual(failure('UnbalancedInstruction'));
    expect(run(1, [{ pubkey: mine }]).err).toBeNull();
    expect(bank.ledger.get(mine)?.data).toEqual(Uint8Array.of(1, 0, 0, 0));
    expect(run(8, [{ pubkey: mine }]).err).toEqual(failure('ModifiedProgramId'));
    expect(bank.ledger.get(mine)?.owner).toBe(TOY);
    expect(bank.ledger.get(victim)?.lamports).toBe(10n ** 9n);
  });

  it('refuses signer escalation in a CPI but accepts a PDA signing with its seeds', () => {
    const [holder, dest] = [id(), id()];
    put(holder, SYSTEM, 10n ** 9n);
    const escalated = run(3, [{ pubkey: holder }, { pubkey: dest }, { pubkey: SYSTEM, isWritable: false }]);
    expect(escalated.err).toEqual(failure('PrivilegeEscalation'));
    expect(escalated.logs).toContain(`${holder}'s signer privilege escalated`);
    const [vault] = PublicKey.findProgramAddressSync([Buffer.from('vault')], new PublicKey(TOY));
    put(vault.toBase58() as Address, SYSTEM, 10n ** 9n);
    const paid = run(4, [
      { pubkey: vault.toBase58() as Address },
      { pubkey: dest },
      { pubkey: SYSTEM, isWritable: false },
    ]);
    expect(paid.err).toBeNull();
    expect(paid.logs).toContain('Program 11111111111111111111111111111111 invoke [2]');
    expect(paid.innerInstructions[0]?.instructions[0]?.stackHeight).toBe(2);
    expect(bank.ledger.get(dest)?.lamports).toBe(1_000_000n);
  });

  it('maps duplicate keys to one account object', () => {
    const key = id();
    put(key, TOY, 10n ** 9n);
    const record = run(5, [{ pubkey: key }, { pubkey: key }]);
    expect(record.err).toBeNull();
    expect(record.logs).toContain('Program log: same object');
  });

  it('fails the transaction when a CPI fails, even if the caller catches it', () => {
    const record = run(6, [
      { pubkey: payer.publicKey.toBase58() as Address, isSigner: true },
      { pubkey: id() },
      { pubkey: SYSTEM, isWritable: false },
    ]);
    expect(record.err).toEqual(failure({ Custom: 1 }));
    expect(record.logs.at(-1)).toBe(`Program ${TOY} failed: custom program error: 0x1`);
  });

  it('refuses reentrancy and reports program panics', () => {
    expect(
      run(7, [
        { pubkey: OTHER_TOY, isWritable: false },
        { pubkey: TOY, isWritable: false },
      ]).err,
    ).toEqual(failure('ReentrancyNotAllowed'));
    const panic = run(99, []);
    expect(panic.err).toEqual(failure('ProgramFailedToComplete'));
    expect(panic.logs).toContain("Program log: panicked at 'boom'");
  });

  it('refuses to leave a new account below the rent-exempt minimum', () => {
    const tx = new Transaction({ feePayer: payer.publicKey, ...bank.clock.latestBlockhash() }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: new PublicKey(id()), lamports: 1 }),
    );
    tx.sign(payer);
    const result = bank.sendTransaction(tx.serialize());
    expect(result.kind === 'preflightFailed' && result.simulation.err).toEqual({
      InsufficientFundsForRent: { account_index: 1 },
    });
  });

  it('creates accounts with System CreateAccount and refuses one already in use', () => {
    const fresh = Keypair.generate();
    const create = () => {
      const tx = new Transaction({ feePayer: payer.publicKey, ...bank.clock.latestBlockhash() }).add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: fresh.publicKey,
          lamports: 10_000_000,
          space: 16,
          programId: new PublicKey(TOY),
        }),
      );
      tx.sign(payer, fresh);
      return bank.sendTransaction(tx.serialize(), { skipPreflight: true });
    };
    expect(create()).toMatchObject({ kind: 'landed', record: { err: null } });
    expect(bank.ledger.get(fresh.publicKey.toBase58() as Address)).toMatchObject({
      owner: TOY,
      lamports: 10_000_000n,
      data: new Uint8Array(16),
    });
    bank.advanceSlot();
    const again = create();
    expect(again).toMatchObject({ kind: 'landed', record: { err: failure({ Custom: 0 }) } });
    if (again.kind === 'landed') {
      expect(again.record.logs).toContain(
        `Create Account: account Address { address: ${fresh.publicKey.toBase58()}, base: None } already in use`,
      );
    }
  });
});
