import { z } from 'zod';
import { dutchCrossingTime } from '../../src/core/auction-rules/dutch-price.js';
import { formatSol, solToLamports } from '../../src/core/money.js';
import { minimumBidAt, statusAt } from '../auction-view.js';
import { defineStrategy, finished, idle } from '../strategy.js';

export const DutchStopConfig = z.object({
  auctionId: z.string().min(32).describe('the Dutch auction to buy'),
  stopPrice: z.number().positive().describe('SOL: buy as soon as the price is at or below this'),
});

/**
 * Buys a Dutch auction once its price reaches the stop. The curve is public and deterministic, so
 * it wakes exactly at the crossing second (no polling), re-checks the price there, and bids the stop
 * (the program charges the price of the slot the bid lands in, never more).
 */
export const dutchStop = defineStrategy({
  name: 'dutch-stop',
  description: 'buy a Dutch auction when its price reaches the stop, waking exactly at the crossing time',
  config: DutchStopConfig,
  auctionIds: (c) => [c.auctionId],
  initialState: () => ({}),
  decide({ config, state, now, views, bids }) {
    const v = views.get(config.auctionId);
    if (!v) return idle(state);
    if (!v.dutch) return finished(state, 'gave_up', `auction ${v.id} is ${v.type}, not dutch`);
    const stop = solToLamports(config.stopPrice);
    if (v.winner !== null || v.settled) {
      return finished(state, v.weHold ? 'won' : 'lost', v.weHold ? 'bought' : 'sold to someone else');
    }
    const status = statusAt(v, now);
    if (status === 'cancelled' || status === 'ended') return finished(state, 'lost', `auction ${status}`);
    const crossing = dutchCrossingTime(v.dutch, stop);
    if (crossing === null)
      return finished(state, 'gave_up', `the floor is above the stop ${formatSol(stop)} SOL`);
    const crossingMs = Math.max(Number(crossing) * 1000, v.startTime);
    if (now < crossingMs) return idle(state, crossingMs);
    // Our bid is in flight or landed: the next view shows the outcome.
    if (bids.some((b) => b.auctionId === v.id)) return idle(state);
    const price = minimumBidAt(v, now);
    if (status !== 'active' || price === null || price > stop) return idle(state, now + 1000);
    return {
      actions: [{ kind: 'bid', auctionId: v.id, amount: stop, reason: `price ${formatSol(price)} ≤ stop` }],
      wakeAt: null,
      done: null,
      state,
    };
  },
});
