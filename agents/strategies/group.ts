import { z } from 'zod';
import { solToLamports } from '../../src/core/money.js';
import type { AuctionView, BidAction, Decision } from '../strategy.js';
import { defineStrategy, finished, idle } from '../strategy.js';
import { lateArmAt, lateProxyStep, type ProxyStep, proxyStep } from './english.js';

export const GroupConfig = z.object({
  mode: z
    .enum(['any', 'all'])
    .describe('any: win one of them (then stop); all: win every one or stop at the first loss'),
  style: z
    .enum(['proxy', 'late'])
    .default('late')
    .describe('how each auction is bid: proxy at once, or late proxy'),
  leadSeconds: z.number().min(1).max(600).default(5),
  items: z
    .array(z.object({ auctionId: z.string().min(32), maxBid: z.number().positive().describe('SOL') }))
    .min(1)
    .max(20),
});
type GroupConfigT = z.output<typeof GroupConfig>;

const stepOf = (c: GroupConfigT, v: AuctionView, max: bigint, now: number): ProxyStep =>
  c.style === 'late' ? lateProxyStep(v, max, c.leadSeconds * 1000, now) : proxyStep(v, max, now);

const earliest = (times: (number | null)[]): number | null => {
  const set = times.filter((t): t is number => t !== null);
  return set.length === 0 ? null : Math.min(...set);
};

/**
 * Groups (Gixen bid groups / contingency groups). `any`: hold at most one lead at a time, bid the
 * earliest-ending reachable auction first (JBidwatcher's MultiSnipe rule), stop once one is won.
 * `all`: every auction is bid independently; the first one lost stops the rest.
 */
export const group = defineStrategy({
  name: 'group',
  description: 'win any one of N auctions, or all of them, each up to its own maximum',
  config: GroupConfig,
  auctionIds: (c) => c.items.map((i) => i.auctionId),
  initialState: () => ({}),
  decide({ config, state, now, views }): Decision<object> {
    const steps = config.items.flatMap((item) => {
      const v = views.get(item.auctionId);
      return v ? [{ v, step: stepOf(config, v, solToLamports(item.maxBid), now) }] : [];
    });
    if (steps.length < config.items.length) return idle(state);
    const won = steps.filter((s) => s.step.kind === 'over' && s.step.outcome === 'won');
    const lost = steps.filter((s) => s.step.kind === 'over' && s.step.outcome !== 'won');
    const wakes = steps.map((s) => (s.step.kind === 'wait' ? s.step.wakeAt : null));

    if (config.mode === 'all') {
      if (lost.length > 0) return finished(state, 'lost', `lost ${lost[0]!.v.id}: stopping the group`);
      if (won.length === steps.length) return finished(state, 'won', 'won every auction of the group');
      const actions = steps.flatMap((s) => (s.step.kind === 'bid' ? [s.step.action] : []));
      return { actions, wakeAt: earliest(wakes), done: null, state };
    }

    if (won.length > 0)
      return finished(state, 'won', `won ${won[0]!.v.id}: the rest of the group is dropped`);
    if (lost.length === steps.length) return finished(state, 'lost', 'every auction of the group is lost');
    // Holding a lead somewhere: wait for it to resolve before committing elsewhere.
    const holding = steps.find((s) => s.v.weHold && s.step.kind === 'wait');
    if (holding) return idle(state, holding.v.endTime);
    const bids = steps
      .filter((s): s is typeof s & { step: { kind: 'bid'; action: BidAction } } => s.step.kind === 'bid')
      .sort((a, b) => a.v.endTime - b.v.endTime);
    const first = bids[0];
    if (first) return { actions: [first.step.action], wakeAt: null, done: null, state };
    const armTimes = steps.map((s) =>
      config.style === 'late' ? lateArmAt(s.v, config.leadSeconds * 1000) : null,
    );
    return idle(state, earliest([...wakes, ...armTimes.filter((t) => t !== null && t > now)]));
  },
});
