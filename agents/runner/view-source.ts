/**
 * Auction views for the runner: one shared fetch per auction however many instances watch it (the
 * load grows with auctions, not auctions × strategies), a short cache, and every answer's
 * `serverTime` fed to the chain clock.
 */
import type { AuctionDetail, SnsAuctionClient } from '../../src/client/sns-auction-client.js';
import { toAuctionView } from '../auction-view.js';
import type { AuctionView } from '../strategy.js';
import type { ChainClock } from './chain-clock.js';

export interface ViewSource {
  get(ids: readonly string[], maxAgeMs?: number): Promise<Map<string, AuctionView>>;
  invalidate(id: string): void;
}

export class ApiViewSource implements ViewSource {
  #cache = new Map<string, { view: AuctionView; at: number }>();
  #inflight = new Map<string, Promise<AuctionView>>();

  constructor(
    private readonly client: SnsAuctionClient,
    private readonly wallet: string,
    private readonly clock: ChainClock,
    private readonly defaultMaxAgeMs = 250,
    /** Sees every detail fetched (the backtest recorder keeps the first of each auction). */
    private readonly onDetail?: (detail: AuctionDetail) => void,
  ) {}

  async get(ids: readonly string[], maxAgeMs = this.defaultMaxAgeMs): Promise<Map<string, AuctionView>> {
    const views = await Promise.all(ids.map((id) => this.#one(id, maxAgeMs)));
    return new Map(views.map((v) => [v.id, v]));
  }

  invalidate(id: string): void {
    this.#cache.delete(id);
  }

  #one(id: string, maxAgeMs: number): Promise<AuctionView> {
    const cached = this.#cache.get(id);
    if (cached && Date.now() - cached.at <= maxAgeMs) return Promise.resolve(cached.view);
    const pending = this.#inflight.get(id);
    if (pending) return pending;
    const fetching = this.client
      .getAuction(id)
      .then((detail) => {
        const at = Date.now();
        this.clock.observe(detail.serverTime, at);
        this.onDetail?.(detail);
        const view = toAuctionView(detail, this.wallet);
        this.#cache.set(id, { view, at });
        return view;
      })
      .finally(() => this.#inflight.delete(id));
    this.#inflight.set(id, fetching);
    return fetching;
  }
}
