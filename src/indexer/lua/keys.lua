-- The index's key names, first in every auction-index script (see ../auction-index.ts for the design).
-- ARGV[1] is the index's key base; every key below shares its hash tag (one cluster slot):
--   ids            HASH   auction address -> iid (a small integer: compact set members)
--   seq            STRING last iid handed out
--   a:<iid>        HASH   what the scripts filter and sort on, all short values (a compact hash):
--                         st state, status, type, seller, s/e start/end, c created, n bids,
--                         pu/pe static price while upcoming/otherwise, ds/df dutch start/floor, slot
--   d:<iid>        STRING the document (JSON) the API reads
--   m:<iid>        STRING off-chain metadata, a JSON object of strings: title, tl (title in lower
--                         case), category, tags (JSON), featured ('1'/'0')
--   ver, vseq      HASH/STRING iid -> version of its document and metadata (bumped by each write),
--                         so the API can cache decoded documents and re-read only changed ones
--   tm             STRING chain time (s) at which every stored status is materialized
--   pg:<cell>:<cv>:<now, w or ->:<rv>:<query> STRING a computed page without search and the
--                         known reserves of its auctions at reserves' version rv, kept 10 s (w: a
--                         seller's price sort, prefixed by the span of seconds it holds for,
--                         price-window.lua); ps:<now>:<vseq>:<rv>:<query> the same for a search,
--                         2 s (page-cache.lua)
--   tver           STRING version of the search texts and sellers (bumped by every change to them)
--   sm:<tver>:<search>, smn:<tver>:<search> SET/STRING the verified matches of a search at that
--                         version and their count, 10 s; search-scratch ZSET, within query.lua only
--   c:<cell>:<key> ZSET   the auctions of a filter cell ("*", "s=active", "x=<seller>,t=dutch", ...)
--                         by sort key: end, created, bids, price
--   cv, cvseq      HASH/STRING cell -> version of its contents, drawn from the sequence cvseq.
--                         Invariant: two reads of a cell at the same cv value see the same members,
--                         scores (live Dutch prices aside: they depend on the time read) and item
--                         versions (ver). So every script that changes a cell's ZSETs, the
--                         dynamic sets of its live Dutch auctions, or the version of one of its
--                         auctions gives the cell a new value (touchCells), in the same script;
--                         a cell never changed since cv exists reads as '0'. Values are never
--                         reused: a page cached under one is never mistaken for a later state.
--   ts:start, ts:end ZSET auctions in on-chain state Active by start/end: status transitions
--   dyn:lo, dyn:hi, dyn:slope, dyn:tr ZSET live Dutch auctions (price falls with time) by their
--                         price WINDOW seconds after they were last scored (a lower bound until
--                         then), at that time (an upper bound from then on), slope (lamports/s),
--                         and that time. Members carry the price schedule, msgpack (iid, start
--                         price, floor, start, end), so scans need no lookups
--   xdyn:<seller>  SET    a seller's live Dutch auctions (the same members)
--   dm             HASH   iid -> that member, for every Dutch auction
--   text           HASH   iid -> search text: title, then the domains, one per line, lower case
--   g:<trigram>    SET    iids whose search text has the trigram
--   sellers, sseq, seller-of HASH/STRING/HASH seller address <-> sid (sellers are searched too)
--   sg:<trigram>   SET    sids whose address (lower case) has the trigram
local B = ARGV[1]

local function k(...)
  return B .. table.concat({ ... }, ':')
end

-- A filter cell's name, e.g. "*", "s=active", "x=<seller>,t=dutch" (one string built, no table).
local function cellName(status, atype, seller)
  local name = seller ~= '' and 'x=' .. seller or ''
  if status ~= '' then name = (name == '' and 's=' or name .. ',s=') .. status end
  if atype ~= '' then name = (name == '' and 't=' or name .. ',t=') .. atype end
  return name == '' and '*' or name
end
