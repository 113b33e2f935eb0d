-- Part of the query script (after query.lua, whose arguments and helpers it uses): the search
-- filter, matches verified by substring after trigrams narrowed them.

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

-- The matches depend only on the search texts and sellers, which change far less often than the
-- index (bids do not touch them): kept as a SET per search-text version (tver, bumped by every
-- change of a text or a new seller) for 10 s, with their count beside (a SET cannot be empty), so
-- a common word is verified once, not on every write. (The expiry also bounds what a writer that
-- does not bump tver yet, mid-deploy, can leave stale.) Returns the SET's key and the count.
local function matchSet()
  local version = redis.call('GET', k('tver')) or '0'
  local key, countKey = k('sm', version, search), k('smn', version, search)
  local count = tonumber(redis.call('GET', countKey))
  if count and (count == 0 or redis.call('EXISTS', key) == 1) then return key, count end
  redis.call('DEL', key)
  local list = searchMatches()
  chunked(list, function(chunk) redis.call('SADD', key, unpack(chunk)) end)
  if #list > 0 then redis.call('PEXPIRE', key, 10000) end
  redis.call('SET', countKey, #list, 'PX', 10000)
  return key, #list
end

-- Sorted by a key every match has a score for (all but price), in Redis's own commands: the total
-- is the size of the intersection of the filter cell's ZSET and the matches (counted, not built);
-- the page, when matches are dense enough to fill it within SCAN_LIMIT entries of the cell, comes
-- from walking the cell in page order and keeping the matches; otherwise from the intersection
-- built in a scratch ZSET. Either way the order is the cell's: score, then iid.
local SCAN_LIMIT, SCAN_BATCH = 10000, 500

local function searchPageByScore(cell, matches)
  local zset = cell .. sort
  local total = redis.call('ZINTERCARD', 2, zset, matches)
  if total <= offset then return total, {} end
  local range = desc and 'ZREVRANGE' or 'ZRANGE'
  if need * redis.call('ZCARD', zset) <= SCAN_LIMIT * total then
    local page, seen, pos = {}, 0, 0
    while #page < limit do
      local rows = redis.call(range, zset, pos, pos + SCAN_BATCH - 1)
      if #rows == 0 then break end
      local isMatch = redis.call('SMISMEMBER', matches, unpack(rows))
      for i = 1, #rows do
        if isMatch[i] == 1 then
          seen = seen + 1
          if seen > offset and #page < limit then page[#page + 1] = rows[i] end
        end
      end
      pos = pos + SCAN_BATCH
    end
    return total, page
  end
  local scratch = k('search-scratch')
  redis.call('ZINTERSTORE', scratch, 2, zset, matches, 'WEIGHTS', 1, 0)
  local page = redis.call(range, scratch, offset, need - 1)
  redis.call('DEL', scratch)
  return total, page
end

-- By price: a match's sort value is its score in the filter cell's ZSET, which also tells whether
-- it passes the filters; live Dutch auctions, absent from price ZSETs, are priced at `now`. Only matches up
-- to the page's cut-off value become entries: most of a large result set never needs one.
local function searchPage()
  local cell = B .. 'c:' .. cellName(status, atype, seller) .. ':'
  local matches, count = matchSet()
  if count == 0 then return 0, {} end
  if sort ~= 'price' then return searchPageByScore(cell, matches) end
  local iids, values, live = {}, {}, {}
  chunked(redis.call('SMEMBERS', matches), function(chunk)
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
