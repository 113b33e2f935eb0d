import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../src/core/collections/lru-cache.js';

describe('LruCache', () => {
  it('never holds more than its capacity, and drops the least recently used first', () => {
    const cache = new LruCache<number, string>(100);
    for (let i = 0; i < 100; i++) cache.set(i, `v${i}`);
    expect(cache.get(0)).toBe('v0'); // now the most recently used
    expect(cache.peek(1)).toBe('v1'); // a peek does not count as a use
    cache.set(100, 'v100');
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(0)).toBe('v0');
    expect(cache.get(100)).toBe('v100');
    for (let i = 101; i < 1_000; i++) {
      cache.set(i, `v${i}`);
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.get(999)).toBe('v999');
  });

  it('evicts a tenth of its capacity at a time, so an insertion does not walk the whole map', () => {
    const cache = new LruCache<number, number>(1_000);
    for (let i = 0; i < 1_001; i++) cache.set(i, i);
    expect(cache.size).toBe(900);
    for (let i = 1_001; i < 1_101; i++) cache.set(i, i);
    expect(cache.size).toBe(1_000);
  });

  it('keeps an entry read at least once per ~0.4 × capacity insertions, whatever else comes and goes', () => {
    const cache = new LruCache<number, number>(100);
    cache.set(-1, -1);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      if (i % 40 === 0) expect(cache.get(-1)).toBe(-1);
    }
    expect(cache.get(-1)).toBe(-1);
    // Read less often than that, it goes like any other.
    const rare = new LruCache<number, number>(100);
    rare.set(-1, -1);
    for (let i = 0; i < 10_000; i++) {
      rare.set(i, i);
      if (i % 200 === 0) rare.get(-1);
    }
    expect(rare.get(-1)).toBeUndefined();
  });

  it('replaces a value in place and forgets a deleted key', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1);
    cache.set('a', 2);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe(2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });
});
