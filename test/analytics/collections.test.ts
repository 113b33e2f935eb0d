import { describe, expect, it } from 'vitest';
import { COLLECTIONS, collectionOf } from '../../src/analytics/collections.js';

describe('collection rules', () => {
  it.each([
    ['123.sol', '3-digit'],
    ['007', '3-digit'],
    ['4567.sol', '4-digit'],
    ['00000.sol', '5-digit'],
    ['abc.sol', '3-letter'],
    ['wxyz.sol', '4-letter'],
    ['🔥.sol', 'emoji'],
    ['👍🏽👍🏽.sol', 'emoji'],
    ['🇫🇷.sol', 'emoji'],
    ['👨‍👩‍👧.sol', 'emoji'],
  ])('puts %s in %s', (domain, slug) => {
    expect(collectionOf(domain)?.slug).toBe(slug);
  });

  it.each([
    '12.sol',
    '123456.sol',
    'ab.sol',
    'abcde.sol',
    'a1c.sol',
    'abc-.sol',
    '🔥a.sol',
    '1🔥.sol',
    '١٢٣.sol',
  ])('puts %s in no collection', (domain) => {
    expect(collectionOf(domain)).toBeNull();
  });

  it('has unique slugs', () => {
    expect(new Set(COLLECTIONS.map((c) => c.slug)).size).toBe(COLLECTIONS.length);
  });
});
