-- One page of GET /auctions at chain time ARGV[2].
-- ARGV: 3 status, 4 type, 5 seller, 6 search (lower case) — '' when absent — 7 sort key
-- (end|created|bids|price), 8 asc|desc, 9 offset, 10 limit, 11 the key of a hidden reserve
-- without its auction address (the ReserveStore's keys, outside this index's hash tag).
-- Returns "<total> <iid> <version> <iid> <version> ...", then a newline and the hidden reserves
-- the service knows of the page's reserve auctions, "<address>=<lamports> ...": the caller reads
-- the documents (d:, m:) it has not cached at those versions with one MGET, and needs no other
-- round trip for the reserves.
-- The reserves are read on every call: they are not part of the index (see withReserves).
-- The script: common.lua, dynamic.lua, price-window.lua, this file, search.lua (the search
-- filter), query-reply.lua (the page).
local reserveKey = ARGV[11]
local now = tonumber(ARGV[2])
local status, atype, seller, search = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local sort, desc = ARGV[7], ARGV[8] == 'desc'
local offset, limit = tonumber(ARGV[9]), tonumber(ARGV[10])
local need = offset + limit
-- Live Dutch auctions are ranked by their price at read time (pricePage): the price sort where
-- the filters let them in.
local livePrices = sort == 'price' and (status == '' or status == 'active') and (atype == '' or atype == 'dutch')
-- A seller's such page is kept with the span of seconds over which it holds (price-window.lua),
-- rather than for its second only.
local windowed = livePrices and seller ~= '' and search == ''
-- The first second at which a windowed page may differ, once pricePage has computed it.
local pageUntil

-- The cached page: its reply, a newline, the addresses of its reserve auctions.
local function withReserves(cachedPage)
  local cut = string.find(cachedPage, '\n', 1, true)
  local known = {}
  for address in string.gmatch(string.sub(cachedPage, cut + 1), '%S+') do
    local lamports = redis.call('GET', reserveKey .. address)
    if lamports then known[#known + 1] = address .. '=' .. lamports end
  end
  return string.sub(cachedPage, 1, cut) .. table.concat(known, ' ')
end

-- Statuses first: once they are those at `now`, a page depends on time only through the prices
-- of live Dutch auctions (migrate gives the cells it changes new versions).
migrate(now)

-- Where the computed page is kept, and for how long (ms).
-- Without search, a page is a function of the query and its cell's contents (one cv value:
-- members, scores, item versions, hence its reserve auctions too), plus the chain second when it
-- ranks live Dutch auctions (livePrices; those it reads from dyn:* or xdyn:* are all members of
-- the cell, so their coming and going changes its cv), except a seller's: that one is kept with
-- the span of seconds over which no price can cross a neighbour (windowed, price-window.lua).
-- Such a page survives writes to other cells and, unless livePrices, the passing seconds. Kept
-- 10 s (a windowed page: as long as it holds): memory stays bounded for a long tail of queries
-- while the pages of popular ones outlive unrelated writes; the expiry also bounds what a writer
-- that does not touch cv yet (mid-deploy) can leave stale.
-- A search spans cells and search texts: its page is keyed by the chain second and the version of
-- the whole index (vseq). Pages keyed by the second are kept 2 s: only instances whose chain clock
-- is a little behind read them later.
-- qv, not qp: during a rolling deploy, instances of the former format (every page keyed by the
-- second and vseq, 2 s) never share a page without search with this one. A search page keeps
-- qp's format and meaning, so the two share those safely.
local cacheKey, cacheTtl
do
  local args = table.concat(ARGV, '|', 3, 10)
  if search ~= '' then
    cacheKey, cacheTtl = k('qp', ARGV[2], redis.call('GET', k('vseq')) or '0', args), 2000
  else
    local cell = cellName(status, atype, seller)
    local version = redis.call('HGET', k('cv'), cell) or '0'
    if windowed then
      cacheKey = k('qv', cell, version, 'w', args)
    elseif livePrices then
      cacheKey, cacheTtl = k('qv', cell, version, ARGV[2], args), 2000
    else
      cacheKey, cacheTtl = k('qv', cell, version, '-', args), 10000
    end
  end
end
local cached = redis.call('GET', cacheKey)
if cached and windowed then
  -- "<from> <until>", a newline, the page: it holds over [from, until).
  local from, till, page = string.match(cached, '^(%d+) (%d+)\n(.*)$')
  cached = from and now >= tonumber(from) and now < tonumber(till) and page or nil
end
if cached then return withReserves(cached) end

-- The order of a ZSET: score, then member bytes; reversed for desc.
local function before(a, b)
  if a.v ~= b.v then
    if desc then return a.v > b.v end
    return a.v < b.v
  end
  if desc then return a.iid > b.iid end
  return a.iid < b.iid
end

-- `list` sorted (by value, then iid) and cut to its first `cap` entries. Sorting bare values and
-- iid strings uses Lua's built-in comparison, far cheaper than calling a comparator function.
local function keepFirst(list, cap)
  local groups, values = {}, {}
  for _, item in ipairs(list) do
    local group = groups[item.v]
    if not group then
      group = {}
      groups[item.v] = group
      values[#values + 1] = item.v
    end
    group[#group + 1] = item.iid
  end
  table.sort(values)
  local out = {}
  for i = 1, #values do
    local v = values[desc and #values - i + 1 or i]
    local group = groups[v]
    table.sort(group)
    for j = 1, #group do
      out[#out + 1] = { iid = group[desc and #group - j + 1 or j], v = v }
      if #out >= cap then return out end
    end
  end
  return out
end

local function ids(list, from, to)
  local out = {}
  for i = from, math.min(to, #list) do out[#out + 1] = list[i].iid end
  return out
end

-- The first `need` live Dutch auctions in price order at `now`: a scan in bound order that stops
-- once no later entry can beat the worst price kept.
local function topDynamic()
  local slack = dynamicSlack(now, desc)
  local best, pos, batch = {}, 0, need + 8
  local range, key = 'ZRANGE', k('dyn', 'lo')
  if desc then range, key = 'ZREVRANGE', k('dyn', 'hi') end
  while true do
    local rows = redis.call(range, key, pos, pos + batch - 1, 'WITHSCORES')
    -- The worst price kept at the last sort only improves as entries are added: stopping on it is safe.
    local worst = #best >= need and best[need].v
    for i = 1, #rows, 2 do
      local score = tonumber(rows[i + 1])
      if worst and ((desc and score + slack < worst) or (not desc and score - slack > worst)) then
        return keepFirst(best, need)
      end
      best[#best + 1] = dynamicEntry(rows[i], now)
    end
    best = keepFirst(best, need)
    if #rows < 2 * batch then return best end
    pos = pos + batch
  end
end

-- All the seller's live Dutch auctions in price order at `now`, and their schedules by iid.
local function sellerDynamic()
  local all, schedules = {}, {}
  for _, member in ipairs(redis.call('SMEMBERS', k('xdyn', seller))) do
    local iid, ds, df, s, e = cmsgpack.unpack(member)
    all[#all + 1] = { iid = iid, v = dutchAt(ds, df, s, e, now) }
    schedules[iid] = { ds, df, s, e }
  end
  return keepFirst(all, #all), schedules
end

local function pricePage(cell)
  -- A seller's page also reads the first static entry after it: what could overtake its last one.
  local last = windowed and need or need - 1
  local rows = redis.call(desc and 'ZREVRANGE' or 'ZRANGE', k('c', cell, 'price'), 0, last, 'WITHSCORES')
  local dynamic, schedules
  if windowed then
    dynamic, schedules = sellerDynamic()
  else
    dynamic = topDynamic()
  end
  local merged, i, j = {}, 1, 1
  while #merged < need do
    local fixed = rows[2 * i - 1] and { iid = rows[2 * i - 1], v = tonumber(rows[2 * i]) }
    local live = dynamic[j]
    if not fixed and not live then break end
    if live and (not fixed or before(live, fixed)) then
      merged[#merged + 1] = live
      j = j + 1
    else
      merged[#merged + 1] = fixed
      i = i + 1
    end
  end
  if windowed then
    local outsiders = {}
    if rows[2 * i - 1] then outsiders[1] = { iid = rows[2 * i - 1], v = tonumber(rows[2 * i]) } end
    for d = j, #dynamic do outsiders[#outsiders + 1] = dynamic[d] end
    pageUntil = pageHoldsUntil(merged, outsiders, schedules, now, desc)
  end
  return ids(merged, offset + 1, need)
end
