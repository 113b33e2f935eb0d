-- One page of GET /auctions at chain time ARGV[2].
-- ARGV: 3 status, 4 type, 5 seller, 6 search (lower case) — '' when absent — 7 sort key
-- (end|created|bids|price), 8 asc|desc, 9 offset, 10 limit.
-- Returns "<total> <iid> <version> <iid> <version> ...": the caller reads the documents (d:, m:) it
-- has not cached at those versions with one MGET.
-- A page is a function of the query, the chain second and the index version (bumped by every
-- write), so identical queries within a second share one computation.
local cacheKey = k('qc', ARGV[2], redis.call('GET', k('vseq')) or '0', table.concat(ARGV, '|', 3))
local cached = redis.call('GET', cacheKey)
if cached then return cached end

local now = tonumber(ARGV[2])
local status, atype, seller, search = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local sort, desc = ARGV[7], ARGV[8] == 'desc'
local offset, limit = tonumber(ARGV[9]), tonumber(ARGV[10])
local need = offset + limit
migrate(now)

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

local function sellerDynamic()
  local all = {}
  for _, member in ipairs(redis.call('SMEMBERS', k('xdyn', seller))) do all[#all + 1] = dynamicEntry(member, now) end
  return keepFirst(all, need)
end

local function pricePage(cell)
  local rows = redis.call(desc and 'ZREVRANGE' or 'ZRANGE', k('c', cell, 'price'), 0, need - 1, 'WITHSCORES')
  local dynamic = seller ~= '' and sellerDynamic() or topDynamic()
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
  return ids(merged, offset + 1, need)
end

-- The trigram sets worth intersecting: the smallest few. Sets much larger than the smallest
-- barely narrow the candidates, which the substring check verifies anyway.
local function selective(grams, prefix)
  local sets = {}
  for i, g in ipairs(grams) do
    local key = k(prefix, g)
    sets[i] = { key = key, size = redis.call('SCARD', key) }
  end
  table.sort(sets, function(a, b) return a.size < b.size end)
  local keys = { sets[1].key }
  for i = 2, math.min(#sets, 3) do
    if sets[i].size <= 8 * sets[1].size then keys[#keys + 1] = sets[i].key end
  end
  return keys
end

-- Auctions whose search text or seller contains `search`, verified (trigrams only narrow).
local function searchMatches()
  local list, fromSellers = {}, {}
  local function addSellers(sellers)
    for _, seller in ipairs(sellers) do
      if string.find(string.lower(seller), search, 1, true) then
        for _, iid in ipairs(redis.call('ZRANGE', k('c', 'x=' .. seller, 'end'), 0, -1)) do fromSellers[iid] = true end
      end
    end
  end
  local function addTexts(iids, texts)
    for i, iid in ipairs(iids) do
      if string.find(texts[i], search, 1, true) then list[#list + 1] = iid end
    end
  end
  if #search >= 3 then
    local grams = gramsOf(search)
    chunked(redis.call('SINTER', unpack(selective(grams, 'g'))), function(iids)
      addTexts(iids, redis.call('HMGET', k('text'), unpack(iids)))
    end)
    chunked(redis.call('SINTER', unpack(selective(grams, 'sg'))), function(sids)
      addSellers(redis.call('HMGET', k('seller-of'), unpack(sids)))
    end)
  else
    -- Shorter than a trigram: a scan of every text and seller (the slow path, O(N)).
    local iids, texts = {}, {}
    local all = redis.call('HGETALL', k('text'))
    for i = 1, #all, 2 do
      iids[#iids + 1] = all[i]
      texts[#texts + 1] = all[i + 1]
    end
    addTexts(iids, texts)
    addSellers(redis.call('HKEYS', k('sellers')))
  end
  if next(fromSellers) then
    for _, iid in ipairs(list) do fromSellers[iid] = nil end
    for iid in pairs(fromSellers) do list[#list + 1] = iid end
  end
  return list
end

-- A match's sort value is its score in the filter cell's ZSET, which also tells whether it passes
-- the filters; live Dutch auctions, absent from price ZSETs, are priced at `now`. Only matches up
-- to the page's cut-off value become entries: most of a large result set never needs one.
local function searchPage()
  local cell = B .. 'c:' .. cellName(status, atype, seller) .. ':'
  local iids, values, live = {}, {}, {}
  chunked(searchMatches(), function(chunk)
    local scores = redis.call('ZMSCORE', cell .. sort, unpack(chunk))
    for i, iid in ipairs(chunk) do
      if scores[i] then
        iids[#iids + 1] = iid
        values[#values + 1] = tonumber(scores[i])
      elseif sort == 'price' then
        live[#live + 1] = iid
      end
    end
  end)
  local entries = {}
  chunked(live, function(chunk)
    local inCell = redis.call('ZMSCORE', cell .. 'end', unpack(chunk))
    local members = redis.call('HMGET', k('dm'), unpack(chunk))
    for i = 1, #chunk do
      if inCell[i] then entries[#entries + 1] = dynamicEntry(members[i], now) end
    end
  end)
  local total = #iids + #entries
  if #values > 0 then
    local sorted = {}
    for i, v in ipairs(values) do sorted[i] = v end
    table.sort(sorted)
    local cut = desc and sorted[math.max(#sorted - need + 1, 1)] or sorted[math.min(need, #sorted)]
    for i, v in ipairs(values) do
      if (desc and v >= cut) or (not desc and v <= cut) then entries[#entries + 1] = { iid = iids[i], v = v } end
    end
  end
  return total, ids(keepFirst(entries, need), offset + 1, need)
end

local total, page
if search ~= '' then
  total, page = searchPage()
else
  local cell = cellName(status, atype, seller)
  total = redis.call('ZCARD', k('c', cell, 'end'))
  if sort == 'price' and (status == '' or status == 'active') and (atype == '' or atype == 'dutch') then
    page = pricePage(cell)
  else
    page = redis.call(desc and 'ZREVRANGE' or 'ZRANGE', k('c', cell, sort), offset, need - 1)
  end
end

-- One space-separated string rather than an array: a single reply element is much cheaper for
-- the client to decode.
local out = { total }
if #page > 0 then
  local versions = redis.call('HMGET', k('ver'), unpack(page))
  for i, iid in ipairs(page) do
    out[#out + 1] = iid
    out[#out + 1] = versions[i]
  end
end
local reply = table.concat(out, ' ')
redis.call('SET', cacheKey, reply, 'PX', 2000)
return reply
