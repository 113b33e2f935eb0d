/**
 * The auction program's custom errors. Anchor numbering: 6000 (0x1770) upward, so a failed bid
 * shows up as `custom program error: 0x177b` in logs and `{"Custom":6011}` in the error value.
 * Never renumber: clients and the indexer match on these numbers.
 */
export const AUCTION_PROGRAM_ERRORS = {
  InvalidDomainCount: { code: 6000, message: 'an auction holds 1 to 5 domains' },
  InvalidDomainName: { code: 6001, message: 'domain name is not a valid second-level .sol name' },
  DomainAccountMismatch: { code: 6002, message: 'name account does not match the domain name' },
  DomainNotOwnedBySeller: { code: 6003, message: 'the seller does not own every listed domain' },
  InvalidDuration: { code: 6004, message: 'duration must be 15 minutes to 30 days' },
  InvalidPrice: { code: 6005, message: 'prices are inconsistent with the auction type' },
  InvalidAuctionAddress: { code: 6006, message: 'auction account is not the PDA of seller and nonce' },
  AuctionNotActive: { code: 6007, message: 'auction is settled or cancelled' },
  AuctionNotStarted: { code: 6008, message: 'auction has not started yet' },
  AuctionEnded: { code: 6009, message: 'bidding window is closed; settle the auction' },
  SellerCannotBid: { code: 6010, message: 'the seller cannot bid on its own auction' },
  BidTooLow: { code: 6011, message: 'bid is below the minimum' },
  AuctionNotEnded: { code: 6012, message: 'auction has not ended yet' },
  UnauthorizedKeeper: { code: 6013, message: 'only the configured keeper may settle' },
  ReserveRevealMismatch: { code: 6014, message: 'revealed reserve does not match the commitment' },
  AuctionHasBids: { code: 6015, message: 'an auction with bids cannot be cancelled' },
  AccountMismatch: { code: 6016, message: 'an account does not match the auction state' },
  MathOverflow: { code: 6017, message: 'arithmetic overflow' },
  InvalidStartTime: { code: 6018, message: 'start time is in the past or too far ahead' },
  InvalidSnipeSettings: { code: 6019, message: 'snipe extension must be 0 to 86400 seconds' },
  InvalidFee: { code: 6020, message: 'fee must be 0 to 10000 basis points' },
} as const;

export type AuctionProgramErrorName = keyof typeof AUCTION_PROGRAM_ERRORS;

const BY_CODE = new Map<number, AuctionProgramErrorName>(
  Object.entries(AUCTION_PROGRAM_ERRORS).map(([name, e]) => [e.code, name as AuctionProgramErrorName]),
);

export function auctionProgramErrorName(code: number): AuctionProgramErrorName | undefined {
  return BY_CODE.get(code);
}
