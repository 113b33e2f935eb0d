-- One page of GET /auctions at chain time ARGV[2]: the query script's arguments and its page
-- cache, right after keys.lua and before any other helper is defined, so that a page already
-- kept is answered without defining the rest of the script (most calls).
-- ARGV: 3 the query, "<status>|<type>|<seller>|<sort key>|asc or desc|<offset>|<limit>|<search>"
-- ('' when absent; sort key end|created|bids|price; the search in lower case, last: it may hold a
-- '|'), one argument rather than eight (each costs the caller and Redis), and as it is the part
-- of the page cache's keys that names the query; 4 the key of a hidden reserve without its
-- auction address, 5 the reserves' version (the ReserveStore's keys, outside this index's hash
-- tag: the store bumps the version with every reserve it writes).
-- Returns "<total> <iid> <version> <iid> <version> ...", then a newline and the hidden reserves
-- the service knows of the page's reserve auctions, "<address>=<lamports> ...": the caller reads
-- the documents (d:, m:) it has not cached at those versions with one MGET, and needs no other
-- round trip for the reserves. A kept page is that reply, kept under the reserves' version too.
-- The script: keys.lua, this file, common.lua, dynamic.lua, price-window.lua, query.lua (the
-- price sort), search.lua (the search filter), query-reply.lua (the page).
local query, reserveKey, reservesVersion = ARGV[3], ARGV[4], ARGV[5]
local now = tonumber(ARGV[2])
local status, atype, seller, sort, order, offset, limit, search =
  string.match(query, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|(%d+)|(%d+)|(.*)$')
local desc = order == 'desc'
offset, limit = tonumber(offset), tonumber(limit)
local need = offset + limit
-- Live Dutch auctions are ranked by their price at read time (pricePage): the price sort where
-- the filters let them in.
local livePrices = sort == 'price' and (status == '' or status == 'active') and (atype == '' or atype == 'dutch')
-- A seller's such page is kept with the span of seconds over which it holds (price-window.lua),
-- rather than for its second only.
local windowed = livePrices and seller ~= '' and search == ''

-- Where the computed page is kept, and for how long (ms). Every key holds the reserves' version
-- (rv): a page holds the known reserves of its auctions.
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
-- pg and ps, not the former formats' qv and qp (which kept the reserve auctions' addresses and
-- read their reserves on every call): instances of the two never share a page during a rolling
-- deploy.
-- Only valid once the statuses are those at `now` (migrate gives the cells it changes new versions).
local function pageCacheKey()
  local rv = redis.call('GET', reservesVersion) or '0'
  if search ~= '' then return k('ps', ARGV[2], redis.call('GET', k('vseq')) or '0', rv, query), 2000 end
  local cell = cellName(status, atype, seller)
  local version = redis.call('HGET', k('cv'), cell) or '0'
  if windowed then return k('pg', cell, version, 'w', rv, query) end
  if livePrices then return k('pg', cell, version, ARGV[2], rv, query), 2000 end
  return k('pg', cell, version, '-', rv, query), 10000
end

-- The page kept under `cacheKey` that holds at `now`, if any.
local function keptPage(cacheKey)
  local kept = redis.call('GET', cacheKey)
  if kept and windowed then
    -- "<from> <until>", a newline, the page: it holds over [from, until).
    local from, till, page = string.match(kept, '^(%d+) (%d+)\n(.*)$')
    return from and now >= tonumber(from) and now < tonumber(till) and page or nil
  end
  return kept
end

-- Statuses first: once they are those at `now`, a page depends on time only through the prices
-- of live Dutch auctions. When they already are, a kept page is the answer.
local statusesCurrent = tonumber(redis.call('GET', k('tm'))) == now
local cacheKey, cacheTtl
if statusesCurrent then
  cacheKey, cacheTtl = pageCacheKey()
  local kept = keptPage(cacheKey)
  if kept then return kept end
end
