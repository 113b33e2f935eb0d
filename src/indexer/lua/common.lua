-- Shared helpers of every auction-index script, after keys.lua (the key names).

local FIELDS = { 'st', 'status', 'type', 'seller', 's', 'e', 'c', 'n', 'pu', 'pe', 'ds', 'df' }
local NUMERIC = { 's', 'e', 'c', 'n', 'pu', 'pe', 'ds', 'df' }

-- nil for unknown ids and for auctions known only by their metadata (not yet seen on chain).
local function loadItem(iid)
  local values = redis.call('HMGET', k('a', iid), unpack(FIELDS))
  if not values[2] then return nil end
  local f = { iid = iid }
  for i, name in ipairs(FIELDS) do f[name] = values[i] end
  for _, name in ipairs(NUMERIC) do f[name] = tonumber(f[name]) end
  return f
end

local function idOf(addr, create)
  local iid = redis.call('HGET', k('ids'), addr)
  if iid or not create then return iid end
  iid = tostring(redis.call('INCR', k('seq')))
  redis.call('HSET', k('ids'), addr, iid)
  return iid
end

-- Mirrors core/auction-rules/status.ts.
local function statusAt(state, s, e, now)
  if state == 'cancelled' then return 'cancelled' end
  if state == 'settled' or now >= e then return 'ended' end
  if now < s then return 'upcoming' end
  return 'active'
end

-- Mirrors core/auction-rules/dutch-price.ts in doubles: exact below 2^53, and off by at most a
-- lamport beyond, which only matters for ordering (the API shows the bigint price).
local function dutchAt(ds, df, s, e, t)
  if df >= ds then return ds end
  if t >= e then return df end
  if t <= s then return ds end
  return ds - math.floor((ds - df) * (t - s) / (e - s))
end

local function isDynamic(f)
  return f.type == 'dutch' and f.st == 'active' and f.status == 'active'
end

local function staticPrice(f)
  if f.status == 'upcoming' then return f.pu end
  return f.pe
end

local function cellsOf(f)
  local cells = {}
  for _, x in ipairs({ '', f.seller }) do
    for _, s in ipairs({ '', f.status }) do
      for _, t in ipairs({ '', f.type }) do cells[#cells + 1] = cellName(s, t, x) end
    end
  end
  return cells
end

local SORT_KEYS = { 'end', 'created', 'bids', 'price' }

-- Redis calls from Lua cost far more than Lua itself: loops batch their reads and writes into
-- one variadic command per chunk (bounded so `unpack` stays within Lua's stack).
local CHUNK = 1000

local function chunked(list, fn)
  for i = 1, #list, CHUNK do fn({ unpack(list, i, math.min(i + CHUNK - 1, #list)) }) end
end

-- How long a live Dutch auction's lower-bound score stays valid; the indexer re-scores them
-- all every few seconds, well within it.
local WINDOW = 10

-- Scores a live Dutch auction at `now`: its price then (upper bound) and WINDOW later (lower bound).
local function scoreDynamic(member, now)
  local _, ds, df, s, e = cmsgpack.unpack(member)
  redis.call('ZADD', B .. 'dyn:hi', dutchAt(ds, df, s, e, now), member)
  redis.call('ZADD', B .. 'dyn:lo', dutchAt(ds, df, s, e, now + WINDOW), member)
  redis.call('ZADD', B .. 'dyn:tr', now, member)
end

local function dynamicMember(iid)
  return redis.call('HGET', B .. 'dm', iid)
end

-- { iid, v = price at `now` } of a live Dutch auction, from its member.
local function dynamicEntry(member, now)
  local iid, ds, df, s, e = cmsgpack.unpack(member)
  return { iid = iid, v = dutchAt(ds, df, s, e, now) }
end

-- One INCR and one HSET for all the cells: Lua's Redis calls, not its loops, are the cost.
local function touchCells(cells)
  local version = redis.call('INCR', k('cvseq'))
  local fields = {}
  for i, cell in ipairs(cells) do
    fields[2 * i - 1], fields[2 * i] = cell, version
  end
  redis.call('HSET', k('cv'), unpack(fields))
end

local function place(f, now)
  local dynamic = isDynamic(f)
  local price = not dynamic and staticPrice(f)
  local cells = cellsOf(f)
  touchCells(cells)
  for _, cell in ipairs(cells) do
    local c = B .. 'c:' .. cell .. ':'
    redis.call('ZADD', c .. 'end', f.e, f.iid)
    redis.call('ZADD', c .. 'created', f.c, f.iid)
    redis.call('ZADD', c .. 'bids', f.n, f.iid)
    if price then redis.call('ZADD', c .. 'price', price, f.iid) end
  end
  if dynamic then
    local member = dynamicMember(f.iid)
    scoreDynamic(member, now)
    redis.call('ZADD', B .. 'dyn:slope', (f.ds - f.df) / math.max(1, f.e - f.s), member)
    redis.call('SADD', B .. 'xdyn:' .. f.seller, member)
  end
  if f.st == 'active' then
    redis.call('ZADD', B .. 'ts:start', f.s, f.iid)
    redis.call('ZADD', B .. 'ts:end', f.e, f.iid)
  end
end

local function unplace(f)
  local cells = cellsOf(f)
  touchCells(cells)
  for _, cell in ipairs(cells) do
    local c = B .. 'c:' .. cell .. ':'
    for _, key in ipairs(SORT_KEYS) do redis.call('ZREM', c .. key, f.iid) end
  end
  if isDynamic(f) then
    local member = dynamicMember(f.iid)
    for _, key in ipairs({ 'dyn:lo', 'dyn:hi', 'dyn:slope', 'dyn:tr' }) do redis.call('ZREM', B .. key, member) end
    redis.call('SREM', B .. 'xdyn:' .. f.seller, member)
  end
  if f.st == 'active' then
    redis.call('ZREM', B .. 'ts:start', f.iid)
    redis.call('ZREM', B .. 'ts:end', f.iid)
  end
end

-- Brings every stored status from tm to `now` (either direction: API instances may read slightly
-- different chain times). Only auctions whose start or end lies between the two can change.
local function migrate(now)
  local tm = tonumber(redis.call('GET', k('tm')))
  if tm == now then return end
  if tm ~= nil then
    local lo, hi = math.min(tm, now), math.max(tm, now)
    local due = {}
    for _, key in ipairs({ k('ts', 'start'), k('ts', 'end') }) do
      for _, iid in ipairs(redis.call('ZRANGEBYSCORE', key, '(' .. lo, hi)) do due[iid] = true end
    end
    for iid in pairs(due) do
      local f = loadItem(iid)
      local status = statusAt(f.st, f.s, f.e, now)
      if status ~= f.status then
        unplace(f)
        f.status = status
        redis.call('HSET', k('a', iid), 'status', status)
        place(f, now)
      end
    end
  end
  redis.call('SET', k('tm'), now)
end

local function gramsOf(text)
  local grams, seen = {}, {}
  for token in string.gmatch(text, '[^\n]+') do
    for i = 1, #token - 2 do
      local g = string.sub(token, i, i + 2)
      if not seen[g] then
        seen[g] = true
        grams[#grams + 1] = g
      end
    end
  end
  return grams, seen
end
