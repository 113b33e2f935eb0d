-- Part of the query script (after page-cache.lua, whose arguments it uses, and the helpers): a
-- page not kept, computed; this file ranks by price (pricePage).
-- The first second at which a windowed page may differ, once pricePage has computed it.
local pageUntil

if not statusesCurrent then
  migrate(now)
  cacheKey, cacheTtl = pageCacheKey()
  local kept = keptPage(cacheKey)
  if kept then return kept end
end

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
