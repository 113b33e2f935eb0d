-- Stores one auction account unless an account from a later slot is already stored.
-- ARGV: 2 address, 3 slot, 4 chain time to materialize statuses at when the index is new,
-- 5 seller, 6 type, 7 state, 8 start, 9 end, 10 created, 11 bid count, 12 price while upcoming,
-- 13 price otherwise (neither used while a Dutch auction is live), 14 dutch start, 15 dutch floor,
-- 16 document (JSON), 17 domains (lower case, one per line)
local slot = tonumber(ARGV[3])
local iid = idOf(ARGV[2], true)
local key = k('a', iid)
local stored = redis.call('HGET', key, 'slot')
if stored and tonumber(stored) > slot then return 0 end

redis.call('SET', k('tm'), ARGV[4], 'NX')
local tm = tonumber(redis.call('GET', k('tm')))
local old = loadItem(iid)
if old then unplace(old) end

local f = {
  iid = iid, seller = ARGV[5], type = ARGV[6], st = ARGV[7],
  s = tonumber(ARGV[8]), e = tonumber(ARGV[9]), c = tonumber(ARGV[10]), n = tonumber(ARGV[11]),
  pu = ARGV[12], pe = ARGV[13], ds = tonumber(ARGV[14]), df = tonumber(ARGV[15]),
}
f.status = statusAt(f.st, f.s, f.e, tm)
redis.call('HSET', key, 'slot', ARGV[3], 'st', f.st, 'status', f.status, 'type', f.type, 'seller', f.seller,
  's', ARGV[8], 'e', ARGV[9], 'c', ARGV[10], 'n', ARGV[11], 'pu', f.pu, 'pe', f.pe, 'ds', ARGV[14], 'df', ARGV[15])
redis.call('SET', k('d', iid), ARGV[16])
if f.type == 'dutch' then redis.call('HSET', k('dm'), iid, cmsgpack.pack(iid, f.ds, f.df, f.s, f.e)) end
setSearchText(iid, searchText(metadataOf(iid).tl, ARGV[17]))
indexSeller(f.seller)
place(f, tm)
bumpVersion(iid)
return 1
