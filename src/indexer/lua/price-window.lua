-- How long a seller's price-sorted page holds (query.lua, pricePage): live Dutch prices fall every
-- second, but a seller's page changes only when one of them crosses a neighbour. Over a window of
-- h seconds from `now` a Dutch price lies between its price at now + h - 1 and its price at now
-- (it never rises), a static price stays put; when every entry of the page stays strictly on its
-- side of the next one, and the last strictly ahead of every entry left out, the page is the same
-- at every second of the window. A tie (ordered by iid) holds only between prices that do not move.

-- The lowest and highest price of `entry` over [now, now + h - 1]; `schedules` has the price
-- schedules (ds, df, s, e) of the live Dutch auctions, by iid.
local function priceRange(entry, schedules, now, h)
  local sch = schedules[entry.iid]
  if not sch then return entry.v, entry.v end
  return dutchAt(sch[1], sch[2], sch[3], sch[4], now + h - 1), entry.v
end

-- Whether `a` stays strictly before `b` in the sort over the window.
local function staysBefore(a, b, schedules, now, h, desc)
  local alo, ahi = priceRange(a, schedules, now, h)
  local blo, bhi = priceRange(b, schedules, now, h)
  -- Two prices that do not move keep their order, ties included (by iid).
  if alo == ahi and blo == bhi then return true end
  if desc then return alo > bhi end
  return ahi < blo
end

-- Whether the page `merged` (the first entries in order) is the same at every second of the
-- h-second window from `now`, `outsiders` being every entry that could overtake its last one.
local function holdsFor(h, merged, outsiders, schedules, now, desc)
  for i = 1, #merged - 1 do
    if not staysBefore(merged[i], merged[i + 1], schedules, now, h, desc) then return false end
  end
  local last = merged[#merged]
  if last then
    for _, c in ipairs(outsiders) do
      if not staysBefore(last, c, schedules, now, h, desc) then return false end
    end
  end
  return true
end

-- The first chain second at which the page may differ: now + the longest window it holds for, up
-- to a minute (a longer window only ever widens the price ranges, so the search can halve it).
local function pageHoldsUntil(merged, outsiders, schedules, now, desc)
  local lo, hi = 1, 60
  while lo < hi do
    local h = math.ceil((lo + hi) / 2)
    if holdsFor(h, merged, outsiders, schedules, now, desc) then
      lo = h
    else
      hi = h - 1
    end
  end
  return now + lo
end
