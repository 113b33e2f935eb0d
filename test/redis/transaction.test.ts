import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execTransaction } from '../../src/redis/transaction.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('execTransaction (real Redis)', () => {
  let t: TestRedis;
  beforeAll(async () => {
    t = await createTestRedis('transaction');
  });
  afterAll(() => t.cleanup());

  it('resolves when every queued command succeeded', async () => {
    await execTransaction(t.redis.multi().set(`${t.prefix}a`, '1').incr(`${t.prefix}a`));
    expect(await t.redis.get(`${t.prefix}a`)).toBe('2');
  });

  it('throws the error of a queued command that failed (EXEC itself succeeds)', async () => {
    await t.redis.set(`${t.prefix}text`, 'not a number');
    await expect(
      execTransaction(t.redis.multi().set(`${t.prefix}b`, '1').incr(`${t.prefix}text`)),
    ).rejects.toThrow(/not an integer/);
  });
});
