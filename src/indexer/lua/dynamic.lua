-- Live Dutch auctions, whose price falls every second, are kept out of the static price ZSETs and
-- ranked at read time. Their price never rises, so an entry scored at tr is bounded: at `now` in
-- [tr, tr + WINDOW] its price lies between its dyn:lo and dyn:hi scores. A scan of dyn:lo in
-- ascending order (dyn:hi descending) can stop at the first score past the worst price it keeps.
-- Entries scored too long ago (or ahead of `now`: API instances read slightly different clocks)
-- widen that by the steepest slope times the overrun.
local function refreshDynamic(now, limit)
  local due = redis.call('ZRANGEBYSCORE', k('dyn', 'tr'), '-inf', '(' .. now, 'LIMIT', 0, limit)
  if #due < limit then
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', k('dyn', 'tr'), '(' .. now, '+inf', 'LIMIT', 0, limit - #due)) do
      due[#due + 1] = m
    end
  end
  chunked(due, function(members)
    local lows, highs, times = {}, {}, {}
    for i, m in ipairs(members) do
      local _, ds, df, s, e = cmsgpack.unpack(m)
      highs[2 * i - 1], highs[2 * i] = dutchAt(ds, df, s, e, now), m
      lows[2 * i - 1], lows[2 * i] = dutchAt(ds, df, s, e, now + WINDOW), m
      times[2 * i - 1], times[2 * i] = now, m
    end
    redis.call('ZADD', k('dyn', 'hi'), unpack(highs))
    redis.call('ZADD', k('dyn', 'lo'), unpack(lows))
    redis.call('ZADD', k('dyn', 'tr'), unpack(times))
  end)
  return #due
end

local function scoreTimes()
  local oldest = redis.call('ZRANGE', k('dyn', 'tr'), 0, 0, 'WITHSCORES')
  local newest = redis.call('ZREVRANGE', k('dyn', 'tr'), 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]), tonumber(newest[2])
end

-- How far past its score an entry's price may be at `now`, for the given scan direction, after
-- re-scoring a few of the stalest entries when some score is close to expiry (the indexer
-- normally keeps them all fresh; this covers it being down).
local function dynamicSlack(now, desc)
  local oldest, newest = scoreTimes()
  if not oldest then return 0 end
  if now - oldest > WINDOW / 2 or newest > now then
    refreshDynamic(now, 16)
    oldest, newest = scoreTimes()
  end
  local overrun = desc and newest - now or now - (oldest + WINDOW)
  if overrun <= 0 then return 0 end
  local steepest = redis.call('ZREVRANGE', k('dyn', 'slope'), 0, 0, 'WITHSCORES')
  return tonumber(steepest[2]) * overrun + 1
end
