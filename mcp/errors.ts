/**
 * Turns failures into tool results an agent can act on: what went wrong, then what to call next.
 * Never a thrown protocol error for a REST failure, never a success that hides an error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ApiError, isApiError } from '../src/client/api-error.js';
import { MoneyError } from '../src/core/money.js';

/** A failure the tool itself detected, with the next step already in the message. */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
}

export function errorResult(text: string, details: Record<string, unknown> = {}): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text }],
    ...(Object.keys(details).length > 0 ? { _meta: { 'sns-auction/error': details } } : {}),
  };
}

/** The agent-facing text for a REST error: the service's message plus the next step. */
export function describeApiError(e: ApiError, action: string): string {
  const said = e.message;
  switch (e.code) {
    case 'BID_TOO_LOW': {
      const minimum = e.details['minimumBid'];
      return `${action} refused: bid below the minimum of ${String(minimum)} SOL (${said}). Call auction_get for the current minimum, then bid_place with amountSol >= ${String(minimum)}.`;
    }
    case 'AUCTION_ENDED': {
      const status = String(e.details['status'] ?? 'ended');
      const next =
        status === 'upcoming'
          ? 'Wait for its start time (auction_get shows startTime), then bid.'
          : status === 'ended'
            ? 'Bidding is over: call auction_settle to settle it, or auctions_list with status "active" to find another.'
            : 'It can no longer take bids: call auctions_list with status "active" to find another.';
      return `${action} refused: the auction is ${status} (${said}). ${next}`;
    }
    case 'NOT_FOUND':
      return `${action}: not found (${said}). Check the id: auctions_list returns auction ids, webhooks_list webhook ids.`;
    case 'INVALID_REQUEST':
      return `${action}: invalid request (${said}). Fix what the message names (an argument, or wait until the time it gives) and call again; auction_get shows an auction's rules and times.`;
    case 'UNAUTHORIZED':
      return e.status === 403
        ? `${action}: the API key may not do this (${said}). The MCP server needs an agent key with write access; the operator must change SNS_AUCTION_API_KEY.`
        : `${action}: the API key was refused (${said}). Do not retry: the operator must set SNS_AUCTION_API_KEY to a valid agent key.`;
    case 'RATE_LIMITED': {
      const wait = e.retryAfterSeconds ?? e.details['retryAfterSeconds'];
      return `${action}: rate limited (${said}). Wait ${String(wait ?? 'a few')} seconds, then call again.`;
    }
    case 'INTERNAL_ERROR':
      return `${action}: the auction service failed (${said}). Retry once in a few seconds; if it fails again, report it.`;
    case 'UNREACHABLE':
      return `${action}: the auction API did not answer (${said}). It may be down: retry in a few seconds; the operator should check SNS_AUCTION_API_URL.`;
  }
}

/** Any failure inside a tool → an isError result. Unknown errors keep their message only. */
export function toErrorResult(e: unknown, action: string): CallToolResult {
  if (isApiError(e)) {
    return errorResult(describeApiError(e, action), {
      code: e.code,
      status: e.status,
      ...(e.retryAfterSeconds === null ? {} : { retryAfterSeconds: e.retryAfterSeconds }),
      ...e.details,
    });
  }
  if (e instanceof ToolFailure) return errorResult(e.message);
  if (e instanceof MoneyError)
    return errorResult(`${action}: ${e.message}. Give SOL with at most 9 decimals.`);
  const message = e instanceof Error ? e.message : String(e);
  return errorResult(`${action} failed: ${message}`);
}
