/**
 * A script run behind the request guard in the SAME Redis round trip: one script first does the
 * guard's work (the API key's checks and its rate-limit hit, as `AuthenticatedHits`, or the
 * anonymous caller's per-IP hit, as `FixedWindowRateLimiter.hit`: same keys, same expiry), then,
 * only when the caller passed and is within its limit, runs the inner script (e.g. the index
 * query). A refused request therefore counts exactly as on the guard's own path and runs nothing
 * else. The inner script's source is wrapped as a function of its own KEYS and ARGV, unchanged.
 */
import type { Redis } from 'ioredis';
import { AUTHENTICATED_HIT_LUA } from './authenticated-hit.js';
import { type Arg, LuaScript, type ScriptCall } from './lua-script.js';

/** The guard's part: a key (the authenticated-hit script's call) or an anonymous IP's bucket. */
export type GuardCall =
  | { readonly mode: 'key'; readonly keys: readonly string[]; readonly args: readonly Arg[] }
  | { readonly mode: 'ip'; readonly bucketKey: string; readonly ttlMs: number };

/**
 * The reply: the guard's own reply (authenticated-hit's {reason} or {'ok', fields, count}; for
 * an IP, {'ip', {}, count}), and the inner script's reply when it ran.
 */
export interface GuardedReply {
  readonly guard: readonly unknown[];
  /** Whether the inner script ran (the caller passed and `count <= limit`). */
  readonly ran: boolean;
  readonly inner: unknown;
  /** The inner script's error, when it failed: to throw once the verdict is applied. */
  readonly error?: Error;
}

// KEYS: 1 the guard's key (the key id by hash, or the IP's bucket), then the inner script's keys.
// ARGV: 1 'key'|'ip', 2 the limit, 3 the number g of the guard's arguments, 4..3+g the guard's
// arguments (for 'ip': the bucket's expiry), then the inner script's arguments.
const DISPATCH = `
local g = tonumber(ARGV[3])
local guardArgs, innerKeys, innerArgs = {}, {}, {}
for i = 4, 3 + g do guardArgs[#guardArgs + 1] = ARGV[i] end
for i = 4 + g, #ARGV do innerArgs[#innerArgs + 1] = ARGV[i] end
for i = 2, #KEYS do innerKeys[#innerKeys + 1] = KEYS[i] end
local verdict
if ARGV[1] == 'ip' then
  local n = redis.call('INCR', KEYS[1])
  if n == 1 then redis.call('PEXPIRE', KEYS[1], guardArgs[1]) end
  verdict = {'ip', {}, n}
else
  verdict = authenticatedHit({KEYS[1]}, guardArgs)
  -- Refused keys, and keys not counted (no bucket, or a refused type), run nothing.
  if verdict[1] ~= 'ok' or verdict[3] == nil then return verdict end
end
if verdict[3] > tonumber(ARGV[2]) then return verdict end
-- An error of the inner script comes back after the verdict, so the caller applies the verdict
-- (its headers) before failing, as when the guard and the script were two calls.
local ok, reply = pcall(inner, innerKeys, innerArgs)
if ok then
  verdict[4] = reply
else
  verdict[4], verdict[5] = '', type(reply) == 'table' and tostring(reply.err) or tostring(reply)
end
return verdict`;

const composed = new Map<string, LuaScript>();

function guardedScript(inner: LuaScript): LuaScript {
  let script = composed.get(inner.sha);
  if (!script) {
    script = new LuaScript(
      `local function authenticatedHit(KEYS, ARGV)\n${AUTHENTICATED_HIT_LUA}\nend\n` +
        `local function inner(KEYS, ARGV)\n${inner.source}\nend\n${DISPATCH}`,
    );
    composed.set(inner.sha, script);
  }
  return script;
}

/** Runs `call` behind `guard` (refused when the guard's count exceeds `limit`) in one round trip. */
export async function runGuarded(
  redis: Redis,
  guard: GuardCall,
  limit: number,
  call: ScriptCall,
): Promise<GuardedReply> {
  const guardKey = guard.mode === 'key' ? guard.keys[0]! : guard.bucketKey;
  const guardArgs = guard.mode === 'key' ? guard.args : [guard.ttlMs];
  const reply = (await guardedScript(call.script).run(
    redis,
    [guardKey, ...call.keys],
    [guard.mode, limit, guardArgs.length, ...guardArgs, ...call.args],
  )) as unknown[];
  const guardReply = reply.slice(0, 3);
  if (reply.length > 4)
    return { guard: guardReply, ran: true, inner: null, error: new Error(String(reply[4])) };
  return { guard: guardReply, ran: reply.length > 3, inner: reply[3] };
}
