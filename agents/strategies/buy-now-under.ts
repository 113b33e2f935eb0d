import { z } from 'zod';
import { formatSol, solToLamports } from '../../src/core/money.js';
import { statusAt } from '../auction-view.js';
import { defineStrategy, finished, idle } from '../strategy.js';

export const BuyNowUnderConfig = z.object({
  auctionId: z.string().min(32).describe('a buy-now auction'),
  maxPrice: z.number().positive().describe('SOL: buy only if the buy-now price is at or below this'),
});

/** Buys a buy-now auction as soon as it opens, if its fixed price is at or under `maxPrice`. */
export const buyNowUnder = defineStrategy({
  name: 'buy-now-under',
  description: 'buy a buy-now auction at once if its price is at or under a maximum',
  config: BuyNowUnderConfig,
  auctionIds: (c) => [c.auctionId],
  initialState: () => ({}),
  decide({ config, state, now, views, bids }) {
    const v = views.get(config.auctionId);
    if (!v) return idle(state);
    if (v.type !== 'buy_now' || v.buyNowPrice === null) {
      return finished(state, 'gave_up', `auction ${v.id} is ${v.type}, not buy_now`);
    }
    if (v.winner !== null)
      return finished(state, v.weHold ? 'won' : 'lost', v.weHold ? 'bought' : 'sold to someone else');
    const status = statusAt(v, now);
    if (status === 'ended' || status === 'cancelled') return finished(state, 'lost', `auction ${status}`);
    const max = solToLamports(config.maxPrice);
    if (v.buyNowPrice > max) {
      return finished(
        state,
        'gave_up',
        `buy-now price ${formatSol(v.buyNowPrice)} SOL is above ${formatSol(max)}`,
      );
    }
    if (status === 'upcoming') return idle(state, v.startTime);
    if (bids.some((b) => b.auctionId === v.id)) return idle(state);
    return {
      actions: [
        { kind: 'bid', auctionId: v.id, amount: v.buyNowPrice, reason: 'buy-now price under maximum' },
      ],
      wakeAt: null,
      done: null,
      state,
    };
  },
});
