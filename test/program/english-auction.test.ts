import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auctionEventsFromLogs,
  fetchAuctions,
  fetchAuctionsBySeller,
  subscribeAuctionEvents,
} from '../../src/chain/auction-client.js';
import { AUCTION_ACCOUNT_SIZE } from '../../src/core/program/auction-account.js';
import type { AuctionEvent } from '../../src/core/program/events.js';
import { bid, createAuction, eventsOf, expectDomainOwners, readAuction, settle } from '../helpers/auction.js';
import {
  expectProgramError,
  SOL,
  startTestLocalnet,
  type TestLocalnet,
  TX_FEE,
} from '../helpers/localnet.js';

const FEE_BPS = 250;

describe('standard auction over the wire', () => {
  let t: TestLocalnet;
  let alice: Keypair;
  let bob: Keypair;
  let rent: bigint;

  beforeAll(async () => {
    t = await startTestLocalnet({ feeBps: FEE_BPS });
    [alice, bob] = await Promise.all([t.fundedKeypair(), t.fundedKeypair()]);
    rent = BigInt(await t.connection.getMinimumBalanceForRentExemption(AUCTION_ACCOUNT_SIZE));
  });
  afterAll(() => t.close());

  it('escrows domains and bids, refunds the outbid bidder and pays seller and treasury exactly at settlement', async () => {
    const seller = await t.fundedKeypair();
    const [sellerStart] = await t.balances([seller.publicKey]);
    const created = await createAuction(t, { domainCount: 2 }, seller);
    const { address } = created;
    const accounts = [
      seller.publicKey,
      alice.publicKey,
      bob.publicKey,
      address,
      t.treasury,
      t.keeper.publicKey,
    ];

    const [sellerAfterCreate, pdaAfterCreate] = await t.balances([seller.publicKey, address]);
    expect(sellerAfterCreate).toBe(sellerStart! - rent - TX_FEE);
    expect(pdaAfterCreate).toBe(rent);
    await expectDomainOwners(t, created.domainNames, address);
    expect((await fetchAuctionsBySeller(t.connection, seller.publicKey)).map((a) => a.address)).toEqual([
      address.toBase58(),
    ]);

    const [s0, a0, b0, , treasury0, keeper0] = await t.balances(accounts);
    await bid(t, alice, address, SOL);
    await bid(t, bob, address, (3n * SOL) / 2n);
    const [s1, a1, b1, pda1] = await t.balances(accounts);
    expect(s1).toBe(s0);
    expect(a1).toBe(a0! - TX_FEE);
    expect(b1).toBe(b0! - (3n * SOL) / 2n - TX_FEE);
    expect(pda1).toBe(rent + (3n * SOL) / 2n);

    await t.warp(3_600);
    const signature = await settle(t, address);
    const fee = (((3n * SOL) / 2n) * BigInt(FEE_BPS)) / 10_000n;
    const [s2, a2, b2, pda2, treasury2, keeper2] = await t.balances(accounts);
    expect(s2).toBe(s0! + (3n * SOL) / 2n - fee);
    expect(treasury2).toBe(treasury0! + fee);
    expect(a2).toBe(a1);
    expect(b2).toBe(b1);
    expect(pda2).toBe(rent);
    expect(keeper2).toBe(keeper0! - TX_FEE);
    await expectDomainOwners(t, created.domainNames, bob.publicKey);

    expect((await fetchAuctions(t.connection, { seller: seller.publicKey, state: 'settled' })).length).toBe(
      1,
    );
    expect(await fetchAuctions(t.connection, { seller: seller.publicKey, state: 'active' })).toEqual([]);
    const settled = await readAuction(t, address);
    expect(settled).toMatchObject({
      state: 'settled',
      winner: bob.publicKey.toBase58(),
      finalPrice: (3n * SOL) / 2n,
    });
    expect(await eventsOf(t, signature)).toEqual([
      {
        name: 'AuctionSettled',
        data: {
          auction: address.toBase58(),
          seller: seller.publicKey.toBase58(),
          winner: bob.publicKey.toBase58(),
          price: (3n * SOL) / 2n,
          fee,
          timestamp: settled.settledAt,
        },
      },
    ]);
  });

  it('lets a bidder raise its own bid, paying only the difference', async () => {
    const { address } = await createAuction(t);
    await bid(t, alice, address, SOL);
    const [before, pdaBefore] = await t.balances([alice.publicKey, address]);
    await bid(t, alice, address, 2n * SOL);
    const [after, pdaAfter] = await t.balances([alice.publicKey, address]);
    expect(after).toBe(before! - SOL - TX_FEE);
    expect(pdaAfter).toBe(pdaBefore! + SOL);
  });

  it('rejects bids below the minimum, by the seller, before the start and after the end', async () => {
    const created = await createAuction(t, { startingPrice: 2n * SOL, minIncrement: SOL });
    const { address, seller } = created;
    await expectProgramError(bid(t, alice, address, 2n * SOL - 1n), 'BidTooLow');
    await bid(t, alice, address, 2n * SOL);
    await expectProgramError(bid(t, bob, address, 3n * SOL - 1n), 'BidTooLow');
    await expectProgramError(bid(t, seller, address, 10n * SOL), 'SellerCannotBid');

    const later = await createAuction(t, { startTs: (await t.chainTime()) + 600n });
    await expectProgramError(bid(t, alice, later.address, 5n * SOL), 'AuctionNotStarted');

    await t.warp(3_600);
    await expectProgramError(bid(t, bob, address, 5n * SOL), 'AuctionEnded');
  });

  it('extends the end by the snipe extension for a bid inside the window, not outside it', async () => {
    const { address, auction } = await createAuction(t, { snipeEnabled: true, snipeExtensionSeconds: 300 });
    expect(auction.snipeWindowSeconds).toBe(60);

    const now = await t.chainTime();
    await t.warp(Number(auction.endTs - now) - 180);
    const outside = await bid(t, alice, address, SOL);
    expect((await eventsOf(t, outside)).map((e) => e.name)).toEqual(['BidPlaced']);
    expect((await readAuction(t, address)).endTs).toBe(auction.endTs);

    await t.warp(150);
    const inside = await bid(t, bob, address, 2n * SOL);
    const events = await eventsOf(t, inside);
    expect(events.map((e) => e.name)).toEqual(['BidPlaced', 'AuctionExtended']);
    expect(events[1]!.data).toMatchObject({ previousEndTs: auction.endTs, newEndTs: auction.endTs + 300n });
    expect(events[0]!.data).toMatchObject({
      endTs: auction.endTs + 300n,
      previousBidder: alice.publicKey.toBase58(),
    });
    expect((await readAuction(t, address)).endTs).toBe(auction.endTs + 300n);

    await t.warp(60);
    await expectProgramError(settle(t, address), 'AuctionNotEnded');
    await bid(t, alice, address, 3n * SOL);
  });

  it('settles only with the keeper, only after the end, and only once', async () => {
    const { address } = await createAuction(t);
    await bid(t, alice, address, SOL);
    await expectProgramError(settle(t, address), 'AuctionNotEnded');
    await t.warp(3_600);
    await expectProgramError(settle(t, address, { keeper: bob }), 'UnauthorizedKeeper');
    await settle(t, address);
    await expectProgramError(settle(t, address), 'AuctionNotActive');
  });

  it('returns the domains when nobody bid', async () => {
    const { address, seller, domainNames } = await createAuction(t);
    await t.warp(3_600);
    const [sellerBefore] = await t.balances([seller.publicKey]);
    const signature = await settle(t, address);
    await expectDomainOwners(t, domainNames, seller.publicKey);
    expect(await t.balances([seller.publicKey, address])).toEqual([sellerBefore, rent]);
    expect(await eventsOf(t, signature)).toMatchObject([
      { name: 'AuctionSettled', data: { winner: null, price: 0n } },
    ]);
  });

  it('streams the same events to a logs subscription as getTransaction returns', async () => {
    const received: { signature: string; events: AuctionEvent[] }[] = [];
    let notify: () => void = () => {};
    const unsubscribe = subscribeAuctionEvents(t.connection, (events, logs) => {
      received.push({ signature: logs.signature, events: events.map((e) => e.event) });
      notify();
    });
    // A confirmation over the same socket proves the logs subscription is live before we bid.
    const bidder = await t.fundedKeypair();
    const { address } = await createAuction(t);

    const signature = await bid(t, bidder, address, SOL);
    const streamed = await new Promise<AuctionEvent[]>((resolve) => {
      const check = () => {
        const match = received.find((r) => r.signature === signature);
        if (match) resolve(match.events);
      };
      notify = check;
      check();
    });
    await unsubscribe();

    const fetched = await eventsOf(t, signature);
    expect(streamed).toEqual(fetched);
    expect(fetched).toMatchObject([
      {
        name: 'BidPlaced',
        data: { auction: address.toBase58(), bidder: bidder.publicKey.toBase58(), amount: SOL },
      },
    ]);
    const tx = await t.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx?.meta?.logMessages).toContain('Program log: Instruction: PlaceBid');
    expect(auctionEventsFromLogs(tx?.meta?.logMessages ?? []).map((e) => e.index)).toEqual([0]);
  });
});
