import type { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dutchPrice, feeSplit } from '../../src/core/auction-rules/index.js';
import { AUCTION_ACCOUNT_SIZE } from '../../src/core/program/auction-account.js';
import type { BidPlacedEvent } from '../../src/core/program/events.js';
import { bid, createAuction, eventsOf, expectDomainOwners, readAuction, settle } from '../helpers/auction.js';
import {
  expectProgramError,
  SOL,
  startTestLocalnet,
  type TestLocalnet,
  TX_FEE,
} from '../helpers/localnet.js';

const FEE_BPS = 500;

describe('dutch and buy-now auctions over the wire', () => {
  let t: TestLocalnet;
  let buyer: Keypair;
  let rent: bigint;

  beforeAll(async () => {
    t = await startTestLocalnet({ feeBps: FEE_BPS });
    buyer = await t.fundedKeypair(1_000n * SOL);
    rent = BigInt(await t.connection.getMinimumBalanceForRentExemption(AUCTION_ACCOUNT_SIZE));
  });
  afterAll(() => t.close());

  /** Buys and checks every balance against the price of the slot the purchase executed in. */
  async function buyAndCheck(address: PublicKey, seller: Keypair, maxPrice: bigint, expectedPrice?: bigint) {
    const accounts = [buyer.publicKey, seller.publicKey, t.treasury, address];
    const [buyer0, seller0, treasury0, pda0] = await t.balances(accounts);
    const before = await readAuction(t, address);
    const signature = await bid(t, buyer, address, maxPrice);
    const events = await eventsOf(t, signature);
    expect(events.map((e) => e.name)).toEqual(['BidPlaced', 'AuctionSettled']);
    const placed = events[0]!.data as BidPlacedEvent;
    const price = expectedPrice ?? dutchPrice(before, placed.timestamp);
    expect(placed.amount).toBe(price);
    const { fee, sellerProceeds } = feeSplit(price, FEE_BPS);
    expect(await t.balances(accounts)).toEqual([
      buyer0! - price - TX_FEE,
      seller0! + sellerProceeds,
      treasury0! + fee,
      pda0,
    ]);
    expect(events[1]!.data).toMatchObject({ winner: buyer.publicKey.toBase58(), price, fee });
    expect(await readAuction(t, address)).toMatchObject({
      state: 'settled',
      winner: buyer.publicKey.toBase58(),
      finalPrice: price,
      settledAt: placed.timestamp,
    });
    return price;
  }

  it('sells a dutch auction at the price of the moment the bid executes, at several times', async () => {
    const options = {
      auctionType: 'dutch',
      startingPrice: 10n * SOL,
      dutchFloor: 2n * SOL,
      durationSeconds: 1_000,
    } as const;
    const [early, middle, late] = await Promise.all([
      createAuction(t, options),
      createAuction(t, options),
      createAuction(t, options),
    ]);

    await t.warp(100);
    const earlyPrice = await buyAndCheck(early.address, early.seller, 10n * SOL);
    expect(earlyPrice).toBeLessThan(10n * SOL);
    await expectDomainOwners(t, early.domainNames, buyer.publicKey);

    await t.warp(400);
    const current = dutchPrice(middle.auction, await t.chainTime());
    await expectProgramError(bid(t, buyer, middle.address, current - SOL), 'BidTooLow');
    const middlePrice = await buyAndCheck(middle.address, middle.seller, current + SOL);
    expect(middlePrice).toBeLessThan(earlyPrice);

    await t.warp(450);
    const latePrice = await buyAndCheck(late.address, late.seller, 10n * SOL);
    expect(latePrice).toBeLessThan(middlePrice);
    expect(latePrice).toBeGreaterThanOrEqual(2n * SOL);
    expect(await t.balances([early.address, middle.address, late.address])).toEqual([rent, rent, rent]);
  });

  it('refuses a dutch bid after the end and returns the unsold domains at settlement', async () => {
    const { address, seller, domainNames } = await createAuction(t, {
      auctionType: 'dutch',
      startingPrice: 3n * SOL,
      dutchFloor: SOL,
      durationSeconds: 900,
      domainCount: 2,
    });
    await t.warp(900);
    await expectProgramError(bid(t, buyer, address, 3n * SOL), 'AuctionEnded');
    await settle(t, address);
    await expectDomainOwners(t, domainNames, seller.publicKey);
    expect(await t.balances([address])).toEqual([rent]);
  });

  it('sells a buy-now auction at the buy-now price even to a higher offer, and only once', async () => {
    const { address, seller, domainNames } = await createAuction(t, {
      auctionType: 'buy_now',
      buyNowPrice: 7n * SOL,
      domainCount: 3,
    });
    await expectProgramError(bid(t, buyer, address, 7n * SOL - 1n), 'BidTooLow');
    await expectProgramError(bid(t, seller, address, 7n * SOL), 'SellerCannotBid');
    await buyAndCheck(address, seller, 9n * SOL, 7n * SOL);
    await expectDomainOwners(t, domainNames, buyer.publicKey);

    const other = await t.fundedKeypair();
    await expectProgramError(bid(t, other, address, 9n * SOL), 'AuctionNotActive');
    await t.warp(3_600);
    await expectProgramError(settle(t, address), 'AuctionNotActive');
  });
});
