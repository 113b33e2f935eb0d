import type { Deps } from '../composition.js';

/** What the auction use cases need from the composition root. */
export type AuctionDeps = Pick<
  Deps,
  | 'connection'
  | 'blockhashes'
  | 'chainClock'
  | 'chain'
  | 'auctionIndex'
  | 'reserves'
  | 'settlements'
  | 'logger'
>;
