-- How long a seller's price-sorted page holds (query.lua, pricePage): live Dutch prices fall every
-- second, but a seller's page changes only when one of them crosses a neighbour. Over a window of
-- h seconds from `now` a Dutch price lies between its price at now + h - 1 and its price at now
-- (it never rises), a static price stays put; when every entry of the page stays strictly on its
-- side of the next one, and the last strictly ahead of every entry left out, the page is the same
-- at every second of the window. Ties (ordered by iid) are not strict: such a page holds one second.

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
  if desc then return alo > bhi end
  return ahi < blo
end

-- The first chain second at which the page `merged` (the first entries in order) may differ,
-- `outsiders` being every entry that could overtake its last one; now + 1 at least.
local function pageHoldsUntil(merged, outsiders, schedules, now, desc)
  for _, h in ipairs({ 60, 10 }) do
    local holds = true
    for i = 1, #merged - 1 do
      if not staysBefore(merged[i], merged[i + 1], schedules, now, h, desc) then
        holds = false
        break
      end
    end
    local last = merged[#merged]
    if holds and last then
      for _, c in ipairs(outsiders) do
        if not staysBefore(last, c, schedules, now, h, desc) then
          holds = false
          break
        end
      end
    end
    if holds then return now + h end
  end
  return now + 1
end
