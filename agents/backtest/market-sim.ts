/**
 * The replayed market of one auction: the recorded bids of others arrive at their recorded chain
 * times, our strategy's bids are judged by the program's own rules (minimum, end, snipe extension,
 * Dutch price), and views come out exactly as the runner would have seen them.
 */

import type { AuctionDetail } from '../../src/client/sns-auction-client.js';
import type { Address } from '../../src/core/address.js';
import { checkBid } from '../../src/core/auction-rules/bid-check.js';
import { applySnipeRule } from '../../src/core/auction-rules/snipe.js';
import { solToLamports } from '../../src/core/money.js';
import { toAuctionView } from '../auction-view.js';
import type { AuctionView } from '../strategy.js';

const sec = (ms: number) => BigInt(Math.floor(ms / 1000));

export class MarketSim {
  readonly id: string;
  #base: AuctionView;
  #topBid: bigint | null;
  #topBidder: string | null;
  #endTs: bigint;
  #winner: string | null = null;
  #bidCount: number;
  readonly seller: string;
  dropped = 0;

  constructor(
    initial: AuctionDetail,
    private readonly wallet: string,
  ) {
    this.#base = toAuctionView(initial, wallet);
    this.id = this.#base.id;
    this.seller = initial.seller;
    this.#topBid = this.#base.topBid;
    this.#topBidder = this.#base.topBidder;
    this.#endTs = sec(this.#base.endTime);
    this.#winner = initial.winner;
    this.#bidCount = this.#base.bidCount;
  }

  /** Applies a bid at chain ms `at`; false when the program would have refused it. */
  bid(bidder: string, amount: bigint, at: number): boolean {
    const b = this.#base;
    const now = sec(at);
    const account = {
      auctionType: b.type,
      state:
        this.#winner !== null
          ? ('settled' as const)
          : b.cancelled
            ? ('cancelled' as const)
            : ('active' as const),
      seller: this.seller as Address,
      startingPrice: b.startingPrice,
      minIncrement: b.minIncrement,
      buyNowPrice: b.buyNowPrice ?? 0n,
      dutchFloor: b.dutch?.dutchFloor ?? 0n,
      startTs: sec(b.startTime),
      endTs: this.#endTs,
      topBidder: this.#topBidder as Address | null,
      topBid: this.#topBid ?? 0n,
    };
    const check = checkBid(account, { bidder: bidder as Address, amount, now });
    if (!check.ok) {
      this.dropped += bidder === this.wallet ? 0 : 1;
      return false;
    }
    const snipe = applySnipeRule(
      {
        auctionType: b.type,
        endTs: this.#endTs,
        snipeEnabled: b.snipeEnabled,
        snipeWindowSeconds: b.snipeWindowMs / 1000,
        snipeExtensionSeconds: b.snipeExtensionMs / 1000,
      },
      now,
    );
    this.#endTs = snipe.newEndTs;
    this.#topBid = check.price;
    this.#topBidder = bidder;
    this.#bidCount += 1;
    if (check.settlesNow) this.#winner = bidder;
    return true;
  }

  bidSol(bidder: string, sol: number, at: number): boolean {
    return this.bid(bidder, solToLamports(sol), at);
  }

  view(at: number): AuctionView {
    const b = this.#base;
    const english = b.type === 'standard' || b.type === 'reserve';
    return {
      ...b,
      endTime: Number(this.#endTs) * 1000,
      topBid: this.#topBid,
      topBidder: this.#topBidder,
      weHold: this.#topBidder === this.wallet,
      bidCount: this.#bidCount,
      minimumBid: english
        ? this.#topBidder === null
          ? b.startingPrice
          : (this.#topBid ?? 0n) + b.minIncrement
        : b.minimumBid,
      settled: this.#winner !== null,
      winner: this.#winner,
      observedAt: at,
    };
  }

  get endTime(): number {
    return Number(this.#endTs) * 1000;
  }
}
