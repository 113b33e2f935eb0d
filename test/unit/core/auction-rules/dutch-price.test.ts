import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DutchSchedule,
  dutchCrossingTime,
  dutchPrice,
} from '../../../../src/core/auction-rules/index.js';
import { U64_MAX } from '../../../../src/core/money.js';
import { END, SOL, START } from '../auction-fixture.js';

const schedule: DutchSchedule = {
  startingPrice: 10n * SOL,
  dutchFloor: 2n * SOL,
  startTs: START,
  endTs: END,
};

const schedules = fc
  .record({
    start: fc.bigInt({ min: 0n, max: U64_MAX }),
    floorShare: fc.double({ min: 0, max: 1, noNaN: true }),
    startTs: fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }),
    span: fc.bigInt({ min: 1n, max: 100_000_000n }),
  })
  .map(({ start, floorShare, startTs, span }): DutchSchedule => {
    const floor = BigInt(Math.floor(Number(start) * floorShare));
    return {
      startingPrice: start,
      dutchFloor: floor > start ? start : floor,
      startTs,
      endTs: startTs + span,
    };
  });

const timeAround = (s: DutchSchedule) => fc.bigInt({ min: s.startTs - 10n, max: s.endTs + 10n });

describe('dutchPrice', () => {
  it.each<[string, bigint, bigint]>([
    ['before the start', START - 100n, 10n * SOL],
    ['at the start', START, 10n * SOL],
    ['one second in (rounded down to the lamport)', START + 1n, 9_997_777_778n],
    ['half way', START + 1_800n, 6n * SOL],
    ['one second before the end', END - 1n, 2n * SOL + 2_222_223n],
    ['at the end', END, 2n * SOL],
    ['after the end', END + 5n, 2n * SOL],
  ])('%s', (_, t, price) => {
    expect(dutchPrice(schedule, t)).toBe(price);
  });

  it('stays at the starting price for a schedule without a drop', () => {
    expect(dutchPrice({ ...schedule, dutchFloor: schedule.startingPrice }, START + 10n)).toBe(10n * SOL);
    expect(dutchPrice({ ...schedule, dutchFloor: 11n * SOL }, END + 10n)).toBe(10n * SOL);
  });

  it('does not overflow with u64 prices over long spans', () => {
    const big: DutchSchedule = { startingPrice: U64_MAX, dutchFloor: 0n, startTs: 0n, endTs: 2n ** 40n };
    expect(dutchPrice(big, 2n ** 39n)).toBe(U64_MAX - U64_MAX / 2n);
  });

  it('is non-increasing in t, within [floor, start], start at startTs and floor at endTs', () => {
    fc.assert(
      fc.property(
        schedules.chain((s) => fc.tuple(fc.constant(s), timeAround(s), timeAround(s))),
        ([s, t1, t2]) => {
          const [early, late] = t1 <= t2 ? [t1, t2] : [t2, t1];
          expect(dutchPrice(s, early)).toBeGreaterThanOrEqual(dutchPrice(s, late));
          expect(dutchPrice(s, t1)).toBeGreaterThanOrEqual(s.dutchFloor);
          expect(dutchPrice(s, t1)).toBeLessThanOrEqual(s.startingPrice);
          expect(dutchPrice(s, s.startTs)).toBe(s.startingPrice);
          expect(dutchPrice(s, s.endTs)).toBe(s.dutchFloor);
        },
      ),
    );
  });
});

describe('dutchCrossingTime', () => {
  it.each<[string, bigint, bigint | null]>([
    ['a stop at or above the start: from the start', 10n * SOL, START],
    ['a stop above the start: from the start', 20n * SOL, START],
    ['half way down', 6n * SOL, START + 1_800n],
    ['one lamport below half way: the next second', 6n * SOL - 1n, START + 1_801n],
    ['the floor: at the end', 2n * SOL, END],
    ['below the floor: never', 2n * SOL - 1n, null],
  ])('%s', (_, stop, t) => {
    expect(dutchCrossingTime(schedule, stop)).toBe(t);
  });

  it('is the first whole second at or below the stop', () => {
    const cases = schedules.chain((s) =>
      fc.tuple(fc.constant(s), fc.bigInt({ min: s.dutchFloor, max: s.startingPrice })),
    );
    fc.assert(
      fc.property(cases, ([s, stop]) => {
        const t = dutchCrossingTime(s, stop);
        if (t === null) throw new Error('a stop within [floor, start] is always reached');
        expect(t).toBeGreaterThanOrEqual(s.startTs);
        expect(t).toBeLessThanOrEqual(s.endTs);
        expect(dutchPrice(s, t)).toBeLessThanOrEqual(stop);
        if (t > s.startTs) expect(dutchPrice(s, t - 1n)).toBeGreaterThan(stop);
        else expect(stop).toBeGreaterThanOrEqual(s.startingPrice);
      }),
    );
  });

  it('matches a second-by-second scan on short schedules', () => {
    const small = fc.record({
      start: fc.bigInt({ min: 1n, max: 1_000n }),
      floor: fc.bigInt({ min: 0n, max: 1_000n }),
      span: fc.bigInt({ min: 1n, max: 200n }),
      stop: fc.bigInt({ min: 0n, max: 1_100n }),
    });
    fc.assert(
      fc.property(small, ({ start, floor, span, stop }) => {
        const s: DutchSchedule = {
          startingPrice: start,
          dutchFloor: floor,
          startTs: 100n,
          endTs: 100n + span,
        };
        let scanned: bigint | null = null;
        for (let t = s.startTs; t <= s.endTs + 1n; t++) {
          if (dutchPrice(s, t) <= stop) {
            scanned = t;
            break;
          }
        }
        expect(dutchCrossingTime(s, stop)).toBe(scanned);
      }),
    );
  });
});
