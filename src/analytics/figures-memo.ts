/**
 * The last answer of an analytics read, kept while the world it was computed from stands still:
 * the same chain second, the same newest event in the event log, the same last event applied to
 * the aggregates. Every indexed change appends an event and chain time moves the windows and Dutch
 * prices, so until one of the three moves every request gets the same figures for one round trip,
 * however many open auctions the collections hold. The first request after a change recomputes.
 */
export class FiguresMemo<T> {
  #last: { readonly state: string; readonly value: Promise<T> } | null = null;

  /** `state` identifies the world; `compute` runs only when it differs from the last one. */
  get(state: string, compute: () => Promise<T>): Promise<T> {
    if (this.#last?.state === state) return this.#last.value;
    const value = compute();
    const entry = { state, value };
    this.#last = entry;
    // A failed computation is not an answer: the next request tries again.
    value.catch(() => {
      if (this.#last === entry) this.#last = null;
    });
    return value;
  }
}
