/**
 * A script run behind the request guard in the SAME Redis round trip: one script first does the
 * guard's work (the API key's checks and its rate-limit hit, `AuthenticatedHits`'s script, or the
 * anonymous caller's per-IP hit, `FixedWindowRateLimiter`'s), then, only when the caller passed
 * and is within its limit, runs the inner script (e.g. the index query). A refused request
 * therefore counts exactly as on the guard's own path and runs nothing else. Each script's source
 * is wrapped as a function of its own KEYS and ARGV, unchanged.
 */
import type { Redis } from 'ioredis';
import { AUTHENTICATED_HIT_LUA } from './authenticated-hit.js';
import { type Arg, LuaScript, type ScriptCall } from './lua-script.js';
import { BUCKET_HIT_LUA } from './rate-limiter.js';

/** The guard's part: a key (the authenticated-hit script's call) or an anonymous IP's bucket. */
export type GuardCall =
  | { readonly mode: 'key'; readonly keys: readonly string[]; readonly args: readonly Arg[] }
  | { readonly mode: 'ip'; readonly bucketKey: string; readonly ttlMs: number };

/**
 * The reply: the guard's own reply (authenticated-hit's, for `AuthenticatedHits.resultOf`; for an
 * IP, 'ip <count>', see `ipCount`), and the inner script's reply when it ran.
 */
export interface GuardedReply {
  readonly guard: string;
  /** Whether the inner script ran (the caller passed and `count <= limit`). */
  readonly ran: boolean;
  /** A string, an integer or null, as the inner script's reply alone would come back. */
  readonly inner: unknown;
  /** The inner script's error, when it failed: to throw once the verdict is applied. */
  readonly error?: Error;
}

/** The count of an IP guard's reply ('ip <count>'). */
export const ipCount = (guard: string): number => Number(guard.slice(3));

// KEYS: 1 the guard's key (the key id by hash, or the IP's bucket), then the inner script's keys.
// ARGV: 1 'key'|'ip', 2 the limit, 3 the number g of the guard's arguments, 4..3+g the guard's
// arguments (for 'ip': the bucket's expiry), then the inner script's arguments.
// Returns { kind, the guard's reply, the inner reply as a string }, kind: 's' a string, 'i' an
// integer, 'n' nil, 'e' an error (its message); '-' it did not run (the third element is then '').
// A table rather than one string: the inner reply (a page, a few hundred bytes) is not copied again.
const DISPATCH = `
local g = tonumber(ARGV[3])
local guardArgs, innerKeys, innerArgs = {}, {}, {}
for i = 4, 3 + g do guardArgs[#guardArgs + 1] = ARGV[i] end
for i = 4 + g, #ARGV do innerArgs[#innerArgs + 1] = ARGV[i] end
for i = 2, #KEYS do innerKeys[#innerKeys + 1] = KEYS[i] end
local verdict, n
if ARGV[1] == 'ip' then
  n = bucketHit({KEYS[1]}, guardArgs)
  verdict = 'ip ' .. n
else
  verdict = authenticatedHit({KEYS[1]}, guardArgs)
  -- Refused keys, and keys not counted (no bucket, or a refused type), run nothing.
  n = tonumber(string.match(verdict, '^ok (%d+) '))
end
if n == nil or n > tonumber(ARGV[2]) then return { '-', verdict, '' } end
-- An error of the inner script comes back after the verdict, so the caller applies the verdict
-- (its headers) before failing, as when the guard and the script were two calls.
local ok, reply = pcall(inner, innerKeys, innerArgs)
local t = type(reply)
if not ok then
  return { 'e', verdict, t == 'table' and tostring(reply.err) or tostring(reply) }
elseif t == 'string' then
  return { 's', verdict, reply }
elseif t == 'number' then
  return { 'i', verdict, string.format('%d', reply) }
elseif reply == nil or reply == false then
  return { 'n', verdict, '' }
end
return { 'e', verdict, 'guarded script: the inner script must return a string, an integer or nil' }`;

const composed = new Map<string, LuaScript>();

function guardedScript(inner: LuaScript): LuaScript {
  let script = composed.get(inner.sha);
  if (!script) {
    script = new LuaScript(
      `local function authenticatedHit(KEYS, ARGV)\n${AUTHENTICATED_HIT_LUA}\nend\n` +
        `local function bucketHit(KEYS, ARGV)\n${BUCKET_HIT_LUA}\nend\n` +
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
  const reply = await guardedScript(call.script).run(
    redis,
    [guardKey, ...call.keys],
    [guard.mode, limit, guardArgs.length, ...guardArgs, ...call.args],
  );
  return parseGuardedReply(reply);
}

/** The parts of DISPATCH's reply. */
function parseGuardedReply(reply: unknown): GuardedReply {
  if (!Array.isArray(reply) || reply.length !== 3) throw new Error('unexpected guarded reply');
  const [kind, guard, rest] = reply.map(String) as [string, string, string];
  switch (kind) {
    case '-':
      return { guard, ran: false, inner: undefined };
    case 's':
      return { guard, ran: true, inner: rest };
    case 'i':
      return { guard, ran: true, inner: Number(rest) };
    case 'n':
      return { guard, ran: true, inner: null };
    case 'e':
      return { guard, ran: true, inner: null, error: new Error(rest) };
    default:
      throw new Error(`unexpected guarded reply kind: ${kind.slice(0, 10)}`);
  }
}
