import { describe, expect, it } from 'vitest';
import { FiguresMemo } from '../../src/analytics/figures-memo.js';

describe('FiguresMemo', () => {
  it('computes once per state and again when the state moves', async () => {
    const memo = new FiguresMemo<number>();
    let runs = 0;
    const compute = async () => ++runs;
    expect(await Promise.all([memo.get('s1', compute), memo.get('s1', compute)])).toEqual([1, 1]);
    expect(await memo.get('s2', compute)).toBe(2);
    expect(await memo.get('s2', compute)).toBe(2);
    expect(runs).toBe(2);
  });

  it('does not keep a failed computation', async () => {
    const memo = new FiguresMemo<string>();
    await expect(memo.get('s', () => Promise.reject(new Error('redis down')))).rejects.toThrow('redis down');
    expect(await memo.get('s', async () => 'recovered')).toBe('recovered');
  });
});
