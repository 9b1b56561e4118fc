/** A map that keeps at most `limit` entries, dropping the least recently used. */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();
  /** The most recently used key: asked for again (a hot path's repository), it is already last in the order. */
  private newest: K | undefined;
  constructor(
    private readonly limit: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    if (this.entries.size > this.limit) {
      const [oldest, evicted] = this.entries.entries().next().value as [K, V];
      this.entries.delete(oldest);
      this.onEvict?.(oldest, evicted);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
    if (key === this.newest) this.newest = undefined;
  }
}
