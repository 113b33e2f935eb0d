/**
 * Shared pure steps of the English-auction strategies: keep the lead by the minimum increment up
 * to a maximum (proxy), and the moment a snipe-aware bidder arms itself (late proxy).
 */
import type { Lamports } from '../../src/core/money.js';
import { minimumBidAt, statusAt } from '../auction-view.js';
import type { AuctionView, BidAction, Outcome } from '../strategy.js';

export type ProxyStep =
  | { readonly kind: 'bid'; readonly action: BidAction }
  | { readonly kind: 'wait'; readonly wakeAt: number | null; readonly why: string }
  | { readonly kind: 'over'; readonly outcome: Outcome; readonly reason: string };

/** When a late proxy starts bidding: `leadMs` before the snipe window opens (before the end without one). */
export function lateArmAt(v: AuctionView, leadMs: number): number {
  const window = v.snipeEnabled ? v.snipeWindowMs : 0;
  return v.endTime - window - leadMs;
}

/** Over (won/lost) once the auction ended or closed; null while it still takes bids. */
export function englishResolution(v: AuctionView, now: number): ProxyStep | null {
  if (v.cancelled) return { kind: 'over', outcome: 'lost', reason: 'auction cancelled' };
  if (v.winner !== null || v.settled || statusAt(v, now) === 'ended') {
    // Settled without a winner (reserve not met) is a loss even if our bid was on top.
    const won = v.weHold && (v.winner !== null || !v.settled);
    return won
      ? { kind: 'over', outcome: 'won', reason: 'auction ended with our bid on top' }
      : { kind: 'over', outcome: 'lost', reason: 'auction ended without our bid on top' };
  }
  return null;
}

/** One proxy step: outbid by the minimum when outbid, never above `max`. */
export function proxyStep(v: AuctionView, max: Lamports, now: number): ProxyStep {
  const over = englishResolution(v, now);
  if (over) return over;
  if (statusAt(v, now) === 'upcoming') return { kind: 'wait', wakeAt: v.startTime, why: 'not started' };
  // Holding the lead: nothing to do until someone outbids us or the auction ends.
  if (v.weHold) return { kind: 'wait', wakeAt: v.endTime, why: 'holding the lead' };
  const minimum = minimumBidAt(v, now);
  if (minimum === null) return { kind: 'wait', wakeAt: v.endTime, why: 'no bid possible now' };
  if (minimum > max) {
    return { kind: 'over', outcome: 'lost', reason: `minimum bid ${minimum} is above our maximum ${max}` };
  }
  return {
    kind: 'bid',
    action: { kind: 'bid', auctionId: v.id, amount: minimum, reason: 'outbid: minimum increment' },
  };
}

/** A late proxy: silent until armed (re-derived from the current end, so extensions re-plan it). */
export function lateProxyStep(v: AuctionView, max: Lamports, leadMs: number, now: number): ProxyStep {
  const over = englishResolution(v, now);
  if (over) return over;
  const armAt = lateArmAt(v, leadMs);
  if (now < armAt) return { kind: 'wait', wakeAt: armAt, why: 'silent until just before the snipe window' };
  return proxyStep(v, max, now);
}
