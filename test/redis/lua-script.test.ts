/** LuaScript: EVALSHA with the EVAL fallback, sent without ioredis's argument flattening. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LuaScript } from '../../src/redis/lua-script.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('LuaScript (real Redis)', () => {
  let t: TestRedis;
  beforeAll(async () => {
    t = await createTestRedis('lua-script');
  });
  afterAll(() => t.cleanup());

  it('runs by SHA once loaded, with its keys and arguments in order, and loads itself when unknown', async () => {
    // A source no other test loads: the first run finds no script under its SHA.
    const script = new LuaScript(
      `-- ${t.prefix}\nreturn KEYS[2] .. ':' .. table.concat(ARGV, ',') .. ':' .. #ARGV`,
    );
    const keys = [`${t.prefix}a`, `${t.prefix}b`];
    expect(await script.run(t.redis, keys, ['x', 7, 'y z'])).toBe(`${t.prefix}b:x,7,y z:3`);
    expect(await t.redis.script('EXISTS', script.sha)).toEqual([1]);
    expect(await script.run(t.redis, keys, [])).toBe(`${t.prefix}b::0`);
    await expect(new LuaScript('return redis.call("NOPE")').run(t.redis, [], [])).rejects.toThrow();
  });

  it('does not flatten its argument list with Array.prototype.flat (~80 ns an argument in V8)', async () => {
    const flat = vi.spyOn(Array.prototype, 'flat');
    try {
      expect(
        await new LuaScript('return #ARGV').run(
          t.redis,
          [],
          Array.from({ length: 20 }, (_, i) => i),
        ),
      ).toBe(20);
      expect(flat).not.toHaveBeenCalled();
    } finally {
      flat.mockRestore();
    }
  });
});
