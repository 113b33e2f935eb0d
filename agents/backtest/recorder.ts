/**
 * Records a history while a runner works: the first detail seen of each auction (hook it into the
 * view source with `observe`), then, when the run is over, every bid from the final details and
 * each instance's live bid decisions from the decision log.
 */
import type { AuctionDetail, SnsAuctionClient } from '../../src/client/sns-auction-client.js';
import type { InstanceStore, StrategySpec } from '../runner/instance-store.js';
import type { HistoryInput } from './history.js';

export class HistoryRecorder {
  readonly #first = new Map<string, AuctionDetail>();

  observe(detail: AuctionDetail): void {
    if (!this.#first.has(detail.id)) this.#first.set(detail.id, detail);
  }

  async finish(
    client: SnsAuctionClient,
    store: InstanceStore,
    wallet: string,
    strategies: (StrategySpec & { id: string })[],
  ): Promise<HistoryInput> {
    const auctions = [];
    for (const [id, initial] of this.#first) {
      const final = await client.getAuction(id);
      auctions.push({
        initial: initial as unknown as Record<string, unknown>,
        bids: final.bids.map(({ bidder, amount, timestamp }) => ({ bidder, amount, timestamp })),
      });
    }
    const live: Record<string, { auctionId: string; amount: string; now: number }[]> = {};
    for (const s of strategies) {
      const decisions = await store.decisions(s.id);
      live[s.id] = decisions
        // Bids that went through; refused ones (retried at once) are not decisions the market saw.
        .filter((d) => d.result?.split('; ').every((r) => r === 'ok'))
        .flatMap((d) => d.actions.map((a) => ({ auctionId: a.auctionId, amount: a.amount, now: d.now })));
    }
    return { version: 1, wallet, auctions, strategies, live };
  }
}
