/** The built-in strategies as pure functions of (views, state, now): no runner, no chain. */
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_STRATEGIES,
  buyNowUnder,
  dutchStop,
  group,
  lateProxy,
  proxyMax,
} from '../../agents/strategies/index.js';
import type { AuctionView, Decision, OwnBid } from '../../agents/strategy.js';
import { dutchPrice } from '../../src/core/auction-rules/dutch-price.js';

const SOL = 1_000_000_000n;
const T0 = 1_800_000_000_000;
const ME = 'Me1111111111111111111111111111111111111111';

function english(id: string, over: Partial<AuctionView> = {}): AuctionView {
  return {
    id,
    type: 'standard',
    startTime: T0,
    endTime: T0 + 3_600_000,
    snipeEnabled: true,
    snipeWindowMs: 60_000,
    snipeExtensionMs: 300_000,
    startingPrice: SOL,
    minIncrement: SOL / 10n,
    minimumBid: SOL,
    topBid: null,
    topBidder: null,
    weHold: false,
    bidCount: 0,
    dutch: null,
    buyNowPrice: null,
    cancelled: false,
    settled: false,
    winner: null,
    observedAt: T0,
    ...over,
  };
}
const outbidBy = (v: AuctionView, amount: bigint, who = 'Other'): AuctionView => ({
  ...v,
  topBid: amount,
  topBidder: who,
  weHold: who === ME,
  minimumBid: amount + v.minIncrement,
});
const A = 'A'.repeat(43);
const B = 'B'.repeat(43);
const C = 'C'.repeat(43);

function decide<C>(
  s: {
    decide: (i: never) => Decision<unknown>;
    config: { parse: (c: unknown) => C };
    initialState: (c: C) => unknown;
  },
  config: unknown,
  views: AuctionView[],
  now: number,
  bids: OwnBid[] = [],
) {
  const c = s.config.parse(config);
  return s.decide({
    config: c,
    state: s.initialState(c),
    now,
    views: new Map(views.map((v) => [v.id, v])),
    bids,
  } as never);
}

describe('proxy-max', () => {
  it('bids the minimum when outbid, waits while holding, gives up above its maximum', () => {
    const cfg = { auctionId: A, maxBid: 2 };
    expect(decide(proxyMax, cfg, [english(A)], T0 + 1000).actions).toEqual([
      { kind: 'bid', auctionId: A, amount: SOL, reason: expect.any(String) },
    ]);
    expect(
      decide(proxyMax, cfg, [outbidBy(english(A), (15n * SOL) / 10n)], T0 + 1000).actions[0]!.amount,
    ).toBe((16n * SOL) / 10n);
    const holding = decide(proxyMax, cfg, [outbidBy(english(A), SOL, ME)], T0 + 1000);
    expect(holding.actions).toEqual([]);
    expect(holding.wakeAt).toBe(T0 + 3_600_000);
    expect(decide(proxyMax, cfg, [outbidBy(english(A), 2n * SOL)], T0 + 1000).done).toMatchObject({
      outcome: 'lost',
    });
    expect(decide(proxyMax, cfg, [outbidBy(english(A), SOL, ME)], T0 + 3_600_000).done).toMatchObject({
      outcome: 'won',
    });
    expect(decide(proxyMax, cfg, [english(A)], T0 - 5000)).toMatchObject({ actions: [], wakeAt: T0 });
  });

  it('refuses a config naming the bad field', () => {
    expect(() => proxyMax.config.parse({ auctionId: A, maxBid: -1 })).toThrow(/maxBid/);
  });
});

describe('late-proxy', () => {
  const cfg = { auctionId: A, maxBid: 3, leadSeconds: 5 };
  const v = english(A);
  const arm = v.endTime - 60_000 - 5_000;

  it('is silent until just before the snipe window, then proxies', () => {
    expect(decide(lateProxy, cfg, [outbidBy(v, SOL)], T0 + 1000)).toMatchObject({ actions: [], wakeAt: arm });
    expect(decide(lateProxy, cfg, [outbidBy(v, SOL)], arm).actions[0]!.amount).toBe((11n * SOL) / 10n);
  });

  it('re-plans after an extension: quiet again until the new arm time', () => {
    const extended = { ...outbidBy(v, 2n * SOL), endTime: v.endTime + 300_000 };
    const d = decide(lateProxy, cfg, [extended], arm + 40_000);
    expect(d).toMatchObject({ actions: [], wakeAt: arm + 300_000 });
    expect(d.state).toEqual({ plannedEnds: [extended.endTime] });
  });

  it('arms before the end when the auction has no snipe window', () => {
    expect(decide(lateProxy, cfg, [{ ...v, snipeEnabled: false }], T0).wakeAt).toBe(v.endTime - 5_000);
  });
});

describe('dutch-stop', () => {
  const schedule = {
    startingPrice: 10n * SOL,
    dutchFloor: SOL,
    startTs: BigInt(T0 / 1000),
    endTs: BigInt(T0 / 1000 + 900),
  };
  const dutch = english(A, {
    type: 'dutch',
    dutch: schedule,
    startingPrice: 10n * SOL,
    endTime: T0 + 900_000,
  });

  it('wakes exactly at the crossing second and bids its stop there', () => {
    const cfg = { auctionId: A, stopPrice: 7.3 };
    const d = decide(dutchStop, cfg, [dutch], T0 + 1000);
    expect(d.actions).toEqual([]);
    const crossing = d.wakeAt!;
    expect(dutchPrice(schedule, BigInt(crossing / 1000))).toBeLessThanOrEqual(7_300_000_000n);
    expect(dutchPrice(schedule, BigInt(crossing / 1000 - 1))).toBeGreaterThan(7_300_000_000n);
    expect(decide(dutchStop, cfg, [dutch], crossing).actions).toEqual([
      { kind: 'bid', auctionId: A, amount: 7_300_000_000n, reason: expect.stringContaining('≤ stop') },
    ]);
    expect(
      decide(dutchStop, cfg, [dutch], crossing, [{ auctionId: A, amount: 1n, at: crossing }]).actions,
    ).toEqual([]);
  });

  it('gives up below the floor or on another type; reports the purchase', () => {
    expect(decide(dutchStop, { auctionId: A, stopPrice: 0.5 }, [dutch], T0).done).toMatchObject({
      outcome: 'gave_up',
    });
    expect(decide(dutchStop, { auctionId: A, stopPrice: 5 }, [english(A)], T0).done).toMatchObject({
      outcome: 'gave_up',
    });
    expect(
      decide(
        dutchStop,
        { auctionId: A, stopPrice: 5 },
        [{ ...dutch, winner: ME, weHold: true, settled: true }],
        T0,
      ).done,
    ).toMatchObject({ outcome: 'won' });
  });
});

describe('buy-now-under', () => {
  const bn = english(A, { type: 'buy_now', buyNowPrice: 2n * SOL });
  it('buys at once when the price is under the maximum, waits for the start, refuses above', () => {
    expect(decide(buyNowUnder, { auctionId: A, maxPrice: 2 }, [bn], T0 + 1).actions[0]!.amount).toBe(
      2n * SOL,
    );
    expect(decide(buyNowUnder, { auctionId: A, maxPrice: 2 }, [bn], T0 - 10_000).wakeAt).toBe(T0);
    expect(decide(buyNowUnder, { auctionId: A, maxPrice: 1.5 }, [bn], T0 + 1).done).toMatchObject({
      outcome: 'gave_up',
    });
  });
});

describe('group', () => {
  const items = [
    { auctionId: A, maxBid: 2 },
    { auctionId: B, maxBid: 2 },
    { auctionId: C, maxBid: 2 },
  ];
  const views = [
    english(A, { endTime: T0 + 3_000_000 }),
    english(B, { endTime: T0 + 2_000_000 }),
    english(C),
  ];

  it('any: bids only the earliest-ending auction, holds one lead at a time, stops once one is won', () => {
    const cfg = { mode: 'any', style: 'proxy', items };
    const first = decide(group, cfg, views, T0 + 1000);
    expect(first.actions.map((a) => a.auctionId)).toEqual([B]);
    const holdingB = [views[0]!, outbidBy(views[1]!, SOL, ME), views[2]!];
    expect(decide(group, cfg, holdingB, T0 + 1000).actions).toEqual([]);
    const wonB = [views[0]!, { ...outbidBy(views[1]!, SOL, ME), settled: true, winner: ME }, views[2]!];
    expect(decide(group, cfg, wonB, T0 + 2_500_000).done).toMatchObject({ outcome: 'won' });
    // B out of reach: move on to the next-ending one.
    const bLost = [views[0]!, outbidBy(views[1]!, 3n * SOL), views[2]!];
    expect(decide(group, cfg, bLost, T0 + 1000).actions.map((a) => a.auctionId)).toEqual([A]);
  });

  it('all: bids every auction, stops at the first loss', () => {
    const cfg = { mode: 'all', style: 'proxy', items };
    expect(
      decide(group, cfg, views, T0 + 1000)
        .actions.map((a) => a.auctionId)
        .sort(),
    ).toEqual([A, B, C]);
    expect(
      decide(group, cfg, [views[0]!, outbidBy(views[1]!, 3n * SOL), views[2]!], T0 + 1000).done,
    ).toMatchObject({ outcome: 'lost' });
  });

  it('late style: silent until the first arm time', () => {
    const d = decide(group, { mode: 'any', style: 'late', leadSeconds: 5, items }, views, T0 + 1000);
    expect(d).toMatchObject({ actions: [], wakeAt: T0 + 2_000_000 - 65_000 });
  });
});

it('registers every built-in by name', () => {
  expect([...BUILTIN_STRATEGIES.keys()].sort()).toEqual([
    'buy-now-under',
    'dutch-stop',
    'group',
    'late-proxy',
    'proxy-max',
  ]);
});
