import { describe, expect, it } from 'vitest';
import {
  type AuctionStatus,
  auctionStatus,
  isBiddingOpen,
} from '../../../../src/core/auction-rules/index.js';
import type { AuctionState } from '../../../../src/core/program/auction-account.js';
import { END, makeAuction, START } from '../auction-fixture.js';

describe('auctionStatus', () => {
  it.each<[AuctionState, bigint, AuctionStatus]>([
    ['active', START - 1n, 'upcoming'],
    ['active', START, 'active'],
    ['active', END - 1n, 'active'],
    ['active', END, 'ended'],
    ['active', END + 1n, 'ended'],
    ['settled', START, 'ended'],
    ['settled', START - 1n, 'ended'],
    ['cancelled', START - 1n, 'cancelled'],
    ['cancelled', START, 'cancelled'],
    ['cancelled', END, 'cancelled'],
  ])('%s at %s is %s', (state, now, status) => {
    const a = makeAuction({ state });
    expect(auctionStatus(a, now)).toBe(status);
    expect(isBiddingOpen(a, now)).toBe(status === 'active');
  });
});
