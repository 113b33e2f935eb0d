import { z } from 'zod';
import { solToLamports } from '../../src/core/money.js';
import { defineStrategy, finished, idle } from '../strategy.js';
import { proxyStep } from './english.js';

export const ProxyMaxConfig = z.object({
  auctionId: z.string().min(32).describe('the English auction to win'),
  maxBid: z.number().positive().describe('SOL: never bid above this'),
});

/** Keeps the lead by the minimum increment, up to `maxBid` (eBay-style proxy bidding). */
export const proxyMax = defineStrategy({
  name: 'proxy-max',
  description: 'keep the lead by the minimum increment up to a maximum',
  config: ProxyMaxConfig,
  auctionIds: (c) => [c.auctionId],
  initialState: () => ({}),
  decide({ config, state, now, views }) {
    const v = views.get(config.auctionId);
    if (!v) return idle(state);
    const step = proxyStep(v, solToLamports(config.maxBid), now);
    if (step.kind === 'bid') return { actions: [step.action], wakeAt: null, done: null, state };
    if (step.kind === 'over') return finished(state, step.outcome, step.reason);
    return idle(state, step.wakeAt);
  },
});
