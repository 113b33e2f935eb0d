/**
 * auction_watch: waits (bounded) until an auction changes — a new bid, a new price, an extension,
 * a status change — so an agent without a webhook receiver can follow an auction. Polls the REST
 * detail (well inside its 1,000/min limit) and reports progress while it waits.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { AuctionDetail } from '../../src/client/sns-auction-client.js';
import { auctionDetail } from '../present.js';
import { count, iso, sol } from '../schemas.js';
import { guarded, okResult } from '../tool-result.js';
import { auctionIdArg } from './auctions.js';
import type { ToolRegistrar } from './registrar.js';

const POLL_MS = 1_000;
const MAX_WAIT_SECONDS = 120;

/** What an agent cares about changing, in words. */
function changesBetween(before: AuctionDetail, now: AuctionDetail): string[] {
  const changes: string[] = [];
  if (now.totalBids !== before.totalBids) {
    changes.push(`new bid: ${now.currentPrice} SOL by ${now.topBidder} (${now.totalBids} bids)`);
  } else if (now.currentPrice !== before.currentPrice) {
    changes.push(`price now ${now.currentPrice} SOL`);
  }
  if (now.endTime !== before.endTime) changes.push(`end moved to ${new Date(now.endTime).toISOString()}`);
  if (now.status !== before.status) changes.push(`status ${before.status} → ${now.status}`);
  if (now.settled !== before.settled) changes.push(`settled: winner ${now.winner ?? 'none'}`);
  return changes;
}

export const registerWatchTool: ToolRegistrar = (server, { client }) => {
  server.registerTool(
    'auction_watch',
    {
      title: 'Watch an auction',
      description:
        `Waits up to timeoutSeconds (max ${MAX_WAIT_SECONDS}) for an auction to change: a new bid, a price move (dutch), an end-time extension (snipe protection), a status change or settlement. ` +
        'Returns as soon as something changes (changes lists what, in words) or at the timeout (changed false); call it again to keep watching. Dutch prices fall continuously: set ignorePriceMoves to wait only for bids and status.',
      inputSchema: {
        auctionId: auctionIdArg,
        timeoutSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).default(60),
        ignorePriceMoves: z.boolean().default(false),
      },
      outputSchema: {
        changed: z.boolean(),
        changes: z.array(z.string()),
        waitedSeconds: count,
        auction: z.object({
          id: z.string(),
          status: z.string(),
          currentPrice: sol,
          topBidder: z.string().nullable(),
          totalBids: count,
          endTime: iso,
          nextMinimumBid: sol.nullable(),
          secondsLeft: count,
        }),
      },
      annotations: { readOnlyHint: true, openWorldHint: false, title: 'Watch an auction' },
    },
    ({ auctionId, timeoutSeconds, ignorePriceMoves }, extra) =>
      guarded('auction_watch', async () => {
        const started = performance.now();
        const deadline = started + timeoutSeconds * 1000;
        const first = await client.getAuction(auctionId, { signal: extra.signal });
        let latest = first;
        let changes: string[] = [];
        const progressToken = extra._meta?.progressToken;
        for (let polls = 1; performance.now() < deadline; polls++) {
          if (progressToken !== undefined) {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: polls, message: `watching ${auctionId}: no change yet` },
            });
          }
          await sleep(Math.min(POLL_MS, Math.max(0, deadline - performance.now())), undefined, {
            signal: extra.signal,
          });
          latest = await client.getAuction(auctionId, { signal: extra.signal });
          changes = changesBetween(first, latest).filter(
            (c) => !(ignorePriceMoves && c.startsWith('price now')),
          );
          if (changes.length > 0) break;
        }
        const d = auctionDetail(latest, 0);
        return okResult(
          {
            changed: changes.length > 0,
            changes,
            waitedSeconds: Math.round((performance.now() - started) / 1000),
            auction: {
              id: d.id,
              status: d.status,
              currentPrice: d.currentPrice,
              topBidder: d.topBidder,
              totalBids: d.totalBids,
              endTime: d.endTime,
              nextMinimumBid: d.rules.nextMinimumBid,
              secondsLeft: d.rules.secondsLeft,
            },
          },
          changes.length > 0 ? `Changed: ${changes.join('; ')}.` : `No change in ${timeoutSeconds} s.`,
        );
      }),
  );
};
