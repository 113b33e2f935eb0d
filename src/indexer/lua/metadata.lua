-- Merges off-chain metadata into an auction, before or after it is seen on chain.
-- ARGV: 2 address, 3.. field/value pairs (title, tl = title in lower case, category, tags, featured).
local iid = idOf(ARGV[2], true)
local meta = metadataOf(iid)
for i = 3, #ARGV, 2 do meta[ARGV[i]] = ARGV[i + 1] end
redis.call('SET', k('m', iid), cjson.encode(meta))
bumpVersion(iid)
-- The cells' cached pages carry the item's version: they are stale now. An auction not yet seen on
-- chain is in no cell.
local f = loadItem(iid)
if f then touchCells(cellsOf(f)) end
local text = redis.call('HGET', k('text'), iid)
if text then setSearchText(iid, searchText(meta.tl, string.match(text, '\n(.*)$'))) end
return 1
