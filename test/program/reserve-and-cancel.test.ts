import { type Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelInstruction,
  createAuctionInstruction,
  findAuctionAddress,
  randomAuctionNonce,
} from '../../src/chain/auction-client.js';
import { AUCTION_ACCOUNT_SIZE } from '../../src/core/program/auction-account.js';
import { reserveCommitment, reserveSalt } from '../../src/core/reserve-commitment.js';
import {
  bid,
  bidInstruction,
  cancel,
  createAuction,
  eventsOf,
  expectDomainOwners,
  readAuction,
  settle,
} from '../helpers/auction.js';
import {
  customError,
  expectProgramError,
  SOL,
  startTestLocalnet,
  type TestLocalnet,
  TX_FEE,
} from '../helpers/localnet.js';

const SERVER_SECRET = 'test-reserve-secret';
const RESERVE = 5n * SOL;

describe('reserve auctions, cancellation and atomicity over the wire', () => {
  let t: TestLocalnet;
  let alice: Keypair;
  let bob: Keypair;
  let rent: bigint;

  beforeAll(async () => {
    t = await startTestLocalnet({ feeBps: 100 });
    [alice, bob] = await Promise.all([t.fundedKeypair(), t.fundedKeypair()]);
    rent = BigInt(await t.connection.getMinimumBalanceForRentExemption(AUCTION_ACCOUNT_SIZE));
  });
  afterAll(() => t.close());

  /** A reserve auction whose salt is derived from its id, as the service does. */
  async function createReserveAuction() {
    const seller = await t.fundedKeypair();
    const [domain] = await t.registerDomains(seller.publicKey);
    const nonce = randomAuctionNonce();
    const id = findAuctionAddress(seller.publicKey, nonce).address;
    const salt = reserveSalt(SERVER_SECRET, id);
    const ix = createAuctionInstruction({
      seller: seller.publicKey,
      nonce,
      auctionType: 'reserve',
      domainNames: [domain!],
      durationSeconds: 3_600,
      startingPrice: SOL,
      minIncrement: SOL / 2n,
      reserveCommitment: reserveCommitment(RESERVE, salt),
    });
    await t.send([ix], [seller]);
    return { address: new PublicKey(id), seller, domain: domain!, salt };
  }

  it('sells when the revealed reserve is met', async () => {
    const { address, seller, domain, salt } = await createReserveAuction();
    await bid(t, alice, address, 4n * SOL);
    await bid(t, bob, address, RESERVE);
    await t.warp(3_600);
    await expectProgramError(settle(t, address), 'ReserveRevealMismatch');
    await expectProgramError(
      settle(t, address, { reveal: { reserve: RESERVE - 1n, salt } }),
      'ReserveRevealMismatch',
    );

    const [seller0, treasury0] = await t.balances([seller.publicKey, t.treasury]);
    const signature = await settle(t, address, { reveal: { reserve: RESERVE, salt } });
    const fee = RESERVE / 100n;
    expect(await t.balances([seller.publicKey, t.treasury, address])).toEqual([
      seller0! + RESERVE - fee,
      treasury0! + fee,
      rent,
    ]);
    await expectDomainOwners(t, [domain], bob.publicKey);
    expect((await readAuction(t, address)).reserveOutcome).toBe('met');
    expect((await eventsOf(t, signature)).map((e) => e.name)).toEqual(['AuctionSettled']);
  });

  it('refunds the top bid and returns the domain when the reserve is not met', async () => {
    const { address, seller, domain, salt } = await createReserveAuction();
    await bid(t, alice, address, 3n * SOL);
    await t.warp(3_600);
    const [alice0, seller0, pda0] = await t.balances([alice.publicKey, seller.publicKey, address]);
    expect(pda0).toBe(rent + 3n * SOL);

    const signature = await settle(t, address, { reveal: { reserve: RESERVE, salt } });
    expect(await t.balances([alice.publicKey, seller.publicKey, address])).toEqual([
      alice0! + 3n * SOL,
      seller0,
      rent,
    ]);
    await expectDomainOwners(t, [domain], seller.publicKey);
    expect(await readAuction(t, address)).toMatchObject({
      state: 'settled',
      winner: null,
      reserveOutcome: 'not_met',
    });
    expect(await eventsOf(t, signature)).toMatchObject([
      { name: 'ReserveNotMet', data: { topBidder: alice.publicKey.toBase58(), topBid: 3n * SOL } },
      { name: 'AuctionSettled', data: { winner: null, price: 0n, fee: 0n } },
    ]);
  });

  it('settles a reserve auction nobody bid on without a reveal, as reserve not met', async () => {
    const { address, seller, domain } = await createReserveAuction();
    await t.warp(3_600);
    const signature = await settle(t, address);
    await expectDomainOwners(t, [domain], seller.publicKey);
    expect((await readAuction(t, address)).reserveOutcome).toBe('not_met');
    expect(await eventsOf(t, signature)).toMatchObject([
      { name: 'ReserveNotMet', data: { topBidder: null, topBid: 0n } },
      { name: 'AuctionSettled', data: { winner: null } },
    ]);
  });

  it('lets the seller cancel an auction without bids, and nobody else', async () => {
    const { address, seller, domainNames } = await createAuction(t, { domainCount: 2 });
    const byAlice = cancelInstruction({ auction: await readAuction(t, address) });
    byAlice.keys[0] = { pubkey: alice.publicKey, isSigner: true, isWritable: true };
    await expectProgramError(t.send([byAlice], [alice]), 'AccountMismatch');
    const [seller0] = await t.balances([seller.publicKey]);
    const signature = await cancel(t, seller, address);
    expect(await t.balances([seller.publicKey, address])).toEqual([seller0! - TX_FEE, rent]);
    await expectDomainOwners(t, domainNames, seller.publicKey);
    expect((await readAuction(t, address)).state).toBe('cancelled');
    expect(await eventsOf(t, signature)).toMatchObject([
      { name: 'AuctionCancelled', data: { seller: seller.publicKey.toBase58() } },
    ]);
    await expectProgramError(bid(t, alice, address, 5n * SOL), 'AuctionNotActive');
    await expectProgramError(cancel(t, seller, address), 'AuctionNotActive');
  });

  it('refuses to cancel once someone bid', async () => {
    const { address, seller } = await createAuction(t);
    await bid(t, alice, address, SOL);
    await expectProgramError(cancel(t, seller, address), 'AuctionHasBids');
  });

  it('leaves every account unchanged when a later instruction of the transaction fails', async () => {
    const { address } = await createAuction(t);
    await bid(t, alice, address, SOL);
    const carol = await t.fundedKeypair();
    const accounts = [alice.publicKey, carol.publicKey, address];
    const [alice0, carol0, pda0] = await t.balances(accounts);
    const data0 = (await t.connection.getAccountInfo(address))!.data;

    const good = await bidInstruction(t, carol, address, 2n * SOL);
    const sameAmountAgain = await bidInstruction(t, carol, address, 2n * SOL);
    const { err } = await t.sendSkippingPreflight([good, sameAmountAgain], [carol]);
    expect(err).toEqual({ InstructionError: [1, customError('BidTooLow')] });
    expect(await t.balances(accounts)).toEqual([alice0, carol0! - TX_FEE, pda0]);
    expect((await t.connection.getAccountInfo(address))!.data).toEqual(data0);
  });
});
