-- The end of the query script (after query.lua and search.lua): the page and its reply.
local total, page
if search ~= '' then
  total, page = searchPage()
else
  local cell = cellName(status, atype, seller)
  total = redis.call('ZCARD', k('c', cell, 'end'))
  if livePrices then
    page = pricePage(cell)
  else
    page = redis.call(desc and 'ZREVRANGE' or 'ZRANGE', k('c', cell, sort), offset, need - 1)
  end
end

-- One space-separated string rather than an array: a single reply element is much cheaper for
-- the client to decode.
local out, knownReserves = { total }, {}
if #page > 0 then
  local versions = redis.call('HMGET', k('ver'), unpack(page))
  -- Only reserve auctions carry a commitment (the program enforces it): the reserve cell tells
  -- which of the page's are, in one call rather than one per auction; the document has the address.
  local inReserveCell = redis.call('ZMSCORE', k('c', 't=reserve', 'end'), unpack(page))
  for i, iid in ipairs(page) do
    out[#out + 1] = iid
    out[#out + 1] = versions[i]
    if inReserveCell[i] then
      local address = string.match(redis.call('GET', k('d', iid)) or '', '"address":"(%w+)"')
      local lamports = address and redis.call('GET', reserveKey .. address)
      if lamports then knownReserves[#knownReserves + 1] = address .. '=' .. lamports end
    end
  end
end
local computed = table.concat(out, ' ') .. '\n' .. table.concat(knownReserves, ' ')
if windowed then
  -- Kept as long as it holds (at most a minute, price-window.lua).
  local header = ARGV[2] .. ' ' .. string.format('%d', pageUntil) .. '\n'
  redis.call('SET', cacheKey, header .. computed, 'PX', (pageUntil - now) * 1000)
else
  redis.call('SET', cacheKey, computed, 'PX', cacheTtl)
end
return computed
