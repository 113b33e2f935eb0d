import { createHash } from 'node:crypto';
import { type ChainableCommander, Command, type Redis } from 'ioredis';

export type Arg = string | number;

/** One call of a script: for callers that run it their own way (e.g. inside a guarded script). */
export interface ScriptCall {
  readonly script: LuaScript;
  readonly keys: readonly string[];
  readonly args: readonly Arg[];
}

/** Runs a script call its own way and returns the script's reply. */
export type ScriptRunner = (call: ScriptCall) => Promise<unknown>;

/**
 * A Lua script run by its SHA1 (EVALSHA), falling back to EVAL once when the server does not
 * know it (first use, or after a Redis restart, which forgets loaded scripts).
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly Arg[]): Promise<unknown> {
    try {
      return await redis.sendCommand(scriptCommand(redis, 'evalsha', this.sha, keys, args));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.sendCommand(scriptCommand(redis, 'eval', this.source, keys, args));
    }
  }

  /** Loads the script so that `queue` can be used in a pipeline or MULTI. */
  async load(redis: Redis): Promise<void> {
    await redis.script('LOAD', this.source);
  }

  queue(pipeline: ChainableCommander, keys: readonly string[], args: readonly Arg[]): void {
    pipeline.evalsha(this.sha, keys.length, ...keys, ...args);
  }
}

function returnsItself<T>(this: T): T {
  return this;
}

/**
 * EVALSHA or EVAL as `redis.evalsha`/`redis.eval` send it, less one cost: ioredis's Command
 * flattens every argument list with Array.prototype.flat, which V8 runs at ~80 ns an argument
 * (1.7 µs for the 21 of a guarded list query, more than encoding them). This list is flat
 * already: its own `flat` says so.
 */
function scriptCommand(
  redis: Redis,
  name: 'evalsha' | 'eval',
  script: string,
  keys: readonly string[],
  args: readonly Arg[],
): Command {
  const list: Arg[] = [script, keys.length, ...keys, ...args];
  (list as { flat: unknown }).flat = returnsItself;
  return new Command(name, list, { replyEncoding: 'utf8', keyPrefix: redis.options.keyPrefix });
}
