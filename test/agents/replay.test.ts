/**
 * The backtest engine on a hand-written history (no chain): a `group` (any one of two, late style)
 * against recorded bids of someone else. Virtual time jumps between the recorded bids and the
 * instance's wake-ups; the market applies the program's rules (minimum, snipe extension).
 */
import { describe, expect, it } from 'vitest';
import { HistorySchema } from '../../agents/backtest/history.js';
import { replay } from '../../agents/backtest/replay.js';

const T0 = 1_800_000_000_000;
const ME = 'Me11111111111111111111111111111111111111111';
const RIVAL = 'Rival111111111111111111111111111111111111111';
const A = 'A'.repeat(43);
const B = 'B'.repeat(43);

const detail = (id: string, endOffsetS: number) => ({
  id,
  seller: 'Seller1111111111111111111111111111111111111',
  type: 'standard',
  status: 'active',
  startTime: T0,
  endTime: T0 + endOffsetS * 1000,
  snipeProtectionEnabled: true,
  snipeWindowSeconds: 60,
  snipeExtensionSeconds: 300,
  startingPrice: 1,
  currentPrice: 1,
  minBidIncrement: 0.1,
  nextMinimumBid: 1,
  topBidder: null,
  totalBids: 0,
  dutchEndPrice: null,
  buyNowPrice: null,
  settled: false,
  winner: null,
  serverTime: T0 + 1000,
  bids: [],
});

describe('replay', () => {
  it('a group "any" moves to the next auction once the first is out of reach, and wins it', () => {
    const history = HistorySchema.parse({
      version: 1,
      wallet: ME,
      auctions: [
        // A ends first; the rival answers our late bid inside the window with more than our maximum.
        { initial: detail(A, 1000), bids: [{ bidder: RIVAL, amount: 2.5, timestamp: T0 + 970_000 }] },
        // B ends later; the rival bids early and never again.
        { initial: detail(B, 2000), bids: [{ bidder: RIVAL, amount: 1.2, timestamp: T0 + 100_000 }] },
      ],
      strategies: [
        {
          id: 'g',
          strategy: 'group',
          config: {
            mode: 'any',
            style: 'late',
            leadSeconds: 5,
            items: [
              { auctionId: A, maxBid: 2 },
              { auctionId: B, maxBid: 2 },
            ],
          },
        },
      ],
    });
    const report = replay(history);
    const [g] = report.instances;
    expect(g!.outcome).toBe('won');
    expect(g!.bids).toEqual([
      // A first (earliest end), at its arm time: end − 60 s window − 5 s lead.
      { auctionId: A, amount: '1000000000', now: T0 + 935_000 },
      // A's rival bid extended A and went above our maximum: B at its arm time, over the rival's 1.2.
      { auctionId: B, amount: '1300000000', now: T0 + 1_935_000 },
    ]);
    expect(report.wins).toBe(1);
    expect(report.bidsUsed).toBe(2);
    expect(report.droppedExternalBids).toBe(0);
    expect(report.differences).toEqual([]);
  });

  it('reports where a replay differs from the live decisions', () => {
    const history = HistorySchema.parse({
      version: 1,
      wallet: ME,
      auctions: [{ initial: detail(A, 1000), bids: [] }],
      strategies: [{ id: 'p', strategy: 'proxy-max', config: { auctionId: A, maxBid: 2 } }],
      live: { p: [{ auctionId: A, amount: '1100000000', now: T0 + 1000 }] },
    });
    expect(replay(history).differences).toEqual([
      `p bid #1: live 1.1 SOL at ${T0 + 1000}, replay 1 SOL at ${T0 + 1000}`,
    ]);
  });

  it('does not apply again a recorded bid the snapshot already holds (the chain counts it, the index lags)', () => {
    const snapshot = {
      ...detail(A, 1000),
      currentPrice: 1,
      topBidder: RIVAL,
      totalBids: 1,
      nextMinimumBid: 1.1,
    };
    const history = HistorySchema.parse({
      version: 1,
      wallet: ME,
      auctions: [{ initial: snapshot, bids: [{ bidder: RIVAL, amount: 1, timestamp: T0 + 500 }] }],
      strategies: [{ id: 'p', strategy: 'proxy-max', config: { auctionId: A, maxBid: 2 } }],
    });
    const report = replay(history);
    expect(report.droppedExternalBids).toBe(0);
    expect(report.instances[0]!.bids[0]!.amount).toBe('1100000000');
  });
});
