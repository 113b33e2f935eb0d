import { type AuctionEvent, decodeAuctionEvent } from './events.js';

export interface LoggedEvent {
  readonly event: AuctionEvent;
  /** Position among the program's events in this transaction: with the signature, a stable event id. */
  readonly index: number;
}

const INVOKE = /^Program (\w+) invoke \[(\d+)\]$/;
const EXIT = /^Program (\w+) (success|failed: .*)$/;
const DATA_PREFIX = 'Program data: ';

/**
 * Extracts our program's events from a transaction's log lines, tracking the invoke stack like
 * Anchor's EventParser so that data logged by other programs (or by us inside a CPI from another
 * program's frame) is attributed to the right program. Malformed payloads are skipped, not thrown:
 * logs are public input.
 */
export function parseAuctionEventsFromLogs(logs: readonly string[], programId: string): LoggedEvent[] {
  const stack: string[] = [];
  const events: LoggedEvent[] = [];
  for (const line of logs) {
    const invoke = INVOKE.exec(line);
    if (invoke) {
      stack.push(invoke[1]!);
      continue;
    }
    if (EXIT.test(line)) {
      stack.pop();
      continue;
    }
    if (stack[stack.length - 1] !== programId || !line.startsWith(DATA_PREFIX)) continue;
    // sol_log_data prints one base64 field per slice; emit! uses exactly one.
    const field = line.slice(DATA_PREFIX.length).split(' ')[0] ?? '';
    try {
      const event = decodeAuctionEvent(new Uint8Array(Buffer.from(field, 'base64')));
      if (event) events.push({ event, index: events.length });
    } catch {
      // A payload with our discriminator that does not decode is not an event we emitted.
    }
  }
  return events;
}
