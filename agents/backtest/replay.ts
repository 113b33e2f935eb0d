/**
 * Backtest: replays a recorded history with a virtual clock, running the identical strategy code.
 * Time jumps from one moment of interest to the next (a recorded bid of someone else, or a wake-up
 * an instance asked for); at each, instances whose auctions changed or whose wake-up is due decide
 * on views built by the market simulator, and their bids go through the program's rules.
 */
import type { AuctionDetail } from '../../src/client/sns-auction-client.js';
import { formatSol } from '../../src/core/money.js';
import { BUILTIN_STRATEGIES } from '../strategies/index.js';
import type { AuctionView, OwnBid, StrategyDefinition } from '../strategy.js';
import type { History } from './history.js';
import { MarketSim } from './market-sim.js';

export interface ReplayedBid {
  readonly auctionId: string;
  readonly amount: string;
  readonly now: number;
}

export interface ReplayedInstance {
  readonly id: string;
  readonly strategy: string;
  readonly outcome: string | null;
  readonly reason: string | null;
  readonly bids: ReplayedBid[];
}

export interface BacktestReport {
  readonly instances: ReplayedInstance[];
  readonly bidsUsed: number;
  readonly wins: number;
  /** Most bids in one minute bucket (the key's limit is 60). */
  readonly maxBidsPerMinute: number;
  /** Recorded bids of others the replayed market refused (they depended on bids we did not repeat). */
  readonly droppedExternalBids: number;
  /** Differences from the live run's bid decisions (same auction and amount, time within the tolerance). */
  readonly differences: string[];
}

interface Sim {
  readonly id: string;
  readonly def: StrategyDefinition;
  readonly config: unknown;
  readonly auctions: string[];
  state: unknown;
  bids: OwnBid[];
  wake: number | null;
  dirty: boolean;
  done: { outcome: string; reason: string } | null;
}

export function replay(
  history: History,
  options: { strategies?: ReadonlyMap<string, StrategyDefinition>; toleranceMs?: number } = {},
): BacktestReport {
  const registry = options.strategies ?? BUILTIN_STRATEGIES;
  const markets = new Map<string, MarketSim>();
  const starts: number[] = [];
  const external: { auctionId: string; bidder: string; amount: number; at: number }[] = [];
  for (const a of history.auctions) {
    const initial = a.initial as unknown as AuctionDetail;
    markets.set(initial.id, new MarketSim(initial, history.wallet));
    starts.push(initial.serverTime);
    // The snapshot's top bid comes from the chain and its bid list from the index, which can lag
    // it: the chain's count says how many of the recorded bids the snapshot already holds.
    const seen = Math.max(initial.totalBids, initial.bids.length);
    a.bids.slice(seen).forEach((b) => {
      if (b.bidder !== history.wallet)
        external.push({ auctionId: initial.id, bidder: b.bidder, amount: b.amount, at: b.timestamp });
    });
  }
  external.sort((x, y) => x.at - y.at);
  const sims: Sim[] = history.strategies.map((spec) => {
    const def = registry.get(spec.strategy);
    if (!def) throw new Error(`strategies[${spec.id}].strategy: unknown "${spec.strategy}"`);
    const config = def.config.parse(spec.config);
    return {
      id: spec.id,
      def,
      config,
      auctions: def.auctionIds(config),
      state: def.initialState(config),
      bids: [],
      wake: null,
      dirty: true,
      done: null,
    };
  });

  let t = Math.min(...starts);
  let next = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    while (next < external.length && external[next]!.at <= t) {
      const e = external[next++]!;
      markets.get(e.auctionId)?.bidSol(e.bidder, e.amount, e.at);
      for (const s of sims) if (s.auctions.includes(e.auctionId)) s.dirty = true;
    }
    for (
      let round = 0;
      round < 5 && sims.some((s) => !s.done && (s.dirty || (s.wake !== null && s.wake <= t)));
      round++
    ) {
      for (const s of sims)
        if (!s.done && (s.dirty || (s.wake !== null && s.wake <= t)))
          decideOnce(s, t, markets, sims, history.wallet);
    }
    const wakes = sims.filter((s) => !s.done && s.wake !== null && s.wake > t).map((s) => s.wake!);
    const upcoming = [...wakes, ...(next < external.length ? [external[next]!.at] : [])];
    // Instances with nothing planned still learn the end: wake them when their auctions end.
    for (const s of sims)
      if (!s.done && s.wake === null)
        upcoming.push(...s.auctions.map((id) => markets.get(id)!.endTime).filter((e) => e > t));
    if (upcoming.length === 0) break;
    t = Math.min(...upcoming);
    for (const s of sims)
      if (!s.done && s.wake === null && s.auctions.some((id) => markets.get(id)!.endTime <= t))
        s.dirty = true;
  }
  return report(history, sims, markets, options.toleranceMs ?? 2_000);
}

function decideOnce(s: Sim, t: number, markets: Map<string, MarketSim>, sims: Sim[], wallet: string): void {
  const views = new Map<string, AuctionView>(s.auctions.map((id) => [id, markets.get(id)!.view(t)]));
  const d = s.def.decide({ config: s.config, state: s.state, now: t, views, bids: s.bids });
  s.state = d.state;
  s.wake = d.wakeAt;
  s.dirty = false;
  if (d.done) {
    s.done = d.done;
    return;
  }
  for (const a of d.actions) {
    if (markets.get(a.auctionId)?.bid(wallet, a.amount, t)) {
      s.bids.push({ auctionId: a.auctionId, amount: a.amount, at: t });
      for (const o of sims) if (o.auctions.includes(a.auctionId)) o.dirty = true;
    }
  }
}

function report(
  history: History,
  sims: Sim[],
  markets: Map<string, MarketSim>,
  toleranceMs: number,
): BacktestReport {
  const instances = sims.map((s) => ({
    id: s.id,
    strategy: s.def.name,
    outcome: s.done?.outcome ?? null,
    reason: s.done?.reason ?? null,
    bids: s.bids.map((b) => ({ auctionId: b.auctionId, amount: b.amount.toString(), now: b.at })),
  }));
  const perMinute = new Map<number, number>();
  for (const i of instances)
    for (const b of i.bids)
      perMinute.set(Math.floor(b.now / 60_000), (perMinute.get(Math.floor(b.now / 60_000)) ?? 0) + 1);
  const differences: string[] = [];
  for (const i of instances) {
    const live = history.live[i.id];
    if (!live) continue;
    const n = Math.max(live.length, i.bids.length);
    for (let k = 0; k < n; k++) {
      const l = live[k];
      const r = i.bids[k];
      if (!l || !r) {
        differences.push(
          `${i.id} bid #${k + 1}: live ${l ? formatSol(BigInt(l.amount)) : 'none'}, replay ${r ? formatSol(BigInt(r.amount)) : 'none'}`,
        );
      } else if (
        l.auctionId !== r.auctionId ||
        l.amount !== r.amount ||
        Math.abs(l.now - r.now) > toleranceMs
      ) {
        differences.push(
          `${i.id} bid #${k + 1}: live ${formatSol(BigInt(l.amount))} SOL at ${l.now}, replay ${formatSol(BigInt(r.amount))} SOL at ${r.now}`,
        );
      }
    }
  }
  return {
    instances,
    bidsUsed: instances.reduce((n, i) => n + i.bids.length, 0),
    wins: instances.filter((i) => i.outcome === 'won').length,
    maxBidsPerMinute: Math.max(0, ...perMinute.values()),
    droppedExternalBids: [...markets.values()].reduce((n, m) => n + m.dropped, 0),
    differences,
  };
}
