import { AUCTION_PROGRAM_ERRORS, type AuctionProgramErrorName } from '../core/program/program-errors.js';
import { ProgramError } from '../localnet/runtime/program-abi.js';

/**
 * `err!(AuctionError::X)`: the custom error (6000+). The message becomes the log line before the
 * failure, in Anchor's wording so log scrapers written for Anchor programs read it unchanged.
 */
export function auctionError(name: AuctionProgramErrorName, detail?: string): ProgramError {
  const { code, message } = AUCTION_PROGRAM_ERRORS[name];
  const text = detail ? `${message} (${detail})` : message;
  return new ProgramError(
    { Custom: code },
    `AnchorError occurred. Error Code: ${name}. Error Number: ${code}. Error Message: ${text}.`,
  );
}
