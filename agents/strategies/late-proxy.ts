import { z } from 'zod';
import { solToLamports } from '../../src/core/money.js';
import { defineStrategy, finished, idle } from '../strategy.js';
import { lateArmAt, lateProxyStep } from './english.js';

export const LateProxyConfig = z.object({
  auctionId: z.string().min(32).describe('the English auction to win'),
  maxBid: z.number().positive().describe('SOL: never bid above this'),
  leadSeconds: z
    .number()
    .min(1)
    .max(600)
    .default(5)
    .describe('start bidding this long before the snipe window opens'),
});

/** The ends this instance planned for, so each extension is visible in the state (and the log). */
interface LateProxyState {
  readonly plannedEnds: readonly number[];
}

/**
 * Snipe-aware proxy: shows nothing until `leadSeconds` before the snipe window, then proxies up to
 * `maxBid`. Every extension moves the end, so the arm time is re-derived and it goes quiet again.
 */
export const lateProxy = defineStrategy({
  name: 'late-proxy',
  description:
    'silent until just before the snipe window, then proxy up to a maximum; re-plans after extensions',
  config: LateProxyConfig,
  auctionIds: (c) => [c.auctionId],
  initialState: (): LateProxyState => ({ plannedEnds: [] }),
  decide({ config, state, now, views }) {
    const v = views.get(config.auctionId);
    if (!v) return idle(state);
    const plannedEnds =
      state.plannedEnds.at(-1) === v.endTime ? state.plannedEnds : [...state.plannedEnds, v.endTime];
    const next = { plannedEnds };
    const leadMs = config.leadSeconds * 1000;
    const step = lateProxyStep(v, solToLamports(config.maxBid), leadMs, now);
    if (step.kind === 'bid') return { actions: [step.action], wakeAt: null, done: null, state: next };
    if (step.kind === 'over') return finished(next, step.outcome, step.reason);
    return idle(next, step.wakeAt ?? lateArmAt(v, leadMs));
  },
});
