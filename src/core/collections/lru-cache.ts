/**
 * A map of at most `capacity` entries that drops the least recently used ones (a Map keeps insertion order; a hit
 * moves its entry to the end). Eviction goes in batches of a tenth of the capacity: V8 leaves a
 * hole for every deleted entry until the table is rebuilt, and `keys().next()` walks the holes at
 * the front, so evicting one entry per insertion costs O(holes) each time (~5 µs at 50,000
 * entries) where one walk per batch costs about nothing per insertion.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly slack: number;

  constructor(private readonly capacity: number) {
    this.slack = Math.max(1, Math.floor(capacity / 10));
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value of `key` without touching its recency. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size <= this.capacity) return;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity - this.slack) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
