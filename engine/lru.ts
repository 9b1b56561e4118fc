/** A map that keeps at most `limit` entries, dropping the least recently used. */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly loading = new Map<K, Promise<V>>();
  constructor(
    private readonly limit: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const [oldest, evicted] = this.entries.entries().next().value as [K, V];
      this.entries.delete(oldest);
      this.onEvict?.(oldest, evicted);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** The cached value, or the loaded one, cached. Concurrent loads of one key share a promise. */
  async through(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load().then(
        (value) => {
          this.set(key, value);
          this.loading.delete(key);
          return value;
        },
        (error) => {
          this.loading.delete(key);
          throw error;
        },
      );
      this.loading.set(key, pending);
    }
    return pending;
  }
}
