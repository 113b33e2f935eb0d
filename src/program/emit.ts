import { type AuctionEvent, encodeAuctionEvent } from '../core/program/events.js';
import type { InvokeContext } from '../localnet/runtime/program-abi.js';

/** Anchor's `emit!`: one `Program data: <base64(discriminator ‖ borsh)>` line. */
export function emit(ctx: InvokeContext, event: AuctionEvent): void {
  ctx.logData(encodeAuctionEvent(event));
}
