/**
 * One memory budget for every content cache of the process (the engine's parsed trees, pages and
 * revisions, pack delta bases, the API's encoded responses): `QUIRE_CACHE_MB`, 48 MB unless set.
 * When the caches together weigh more, the least recently used entry of any of them goes first.
 */
export const cacheBudgetBytes = Math.max(0, Number(process.env.QUIRE_CACHE_MB ?? 48)) * 1024 * 1024;

interface Entry<V> {
  value: V;
  bytes: number;
  used: number;
}

const caches = new Set<BudgetedCache<unknown, unknown>>();
let usedBytes = 0;
let clock = 0;
const reorderAfterUses = 64;

/** The bytes the budgeted caches hold now (estimates: what their entries were weighed at). */
export const cachedBytes = () => usedBytes;

/** A least-recently-used cache whose entries count against the process-wide budget. */
export class BudgetedCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly loading = new Map<K, Promise<V>>();
  private bytes = 0;

  /** `weigh` estimates an entry's memory in bytes (its key included); `capBytes` bounds this cache alone, within the budget. */
  constructor(
    private readonly weigh: (value: V, key: K) => number,
    private readonly capBytes = Infinity,
  ) {
    caches.add(this as BudgetedCache<unknown, unknown>);
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Moved to the end of this cache's order unless it was used a moment ago (it is near the end
    // then): a hot entry asked for on every request costs a lookup, not a delete and an insert.
    if (clock - entry.used > reorderAfterUses) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    entry.used = ++clock;
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.weigh(value, key);
    if (bytes > Math.min(cacheBudgetBytes, this.capBytes)) return; // larger than the whole budget: not kept at all
    this.entries.set(key, { value, bytes, used: ++clock });
    usedBytes += bytes;
    this.bytes += bytes;
    while (this.bytes > this.capBytes) this.evictOne();
    while (usedBytes > cacheBudgetBytes && evictOldest());
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    usedBytes -= entry.bytes;
    this.bytes -= entry.bytes;
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

  /** When this cache's least recently used entry was last used (Infinity when empty). */
  oldestUse(): number {
    for (const entry of this.entries.values()) return entry.used;
    return Infinity;
  }

  evictOne(): void {
    for (const key of this.entries.keys()) {
      this.delete(key);
      return;
    }
  }
}

function evictOldest(): boolean {
  let oldest: BudgetedCache<unknown, unknown> | undefined;
  for (const cache of caches) if (cache.oldestUse() < (oldest?.oldestUse() ?? Infinity)) oldest = cache;
  oldest?.evictOne();
  return oldest !== undefined;
}

/** Rough bytes of a string held in memory (UTF-16 at worst, plus the object). */
export const stringBytes = (text: string | undefined) => (text === undefined ? 0 : 40 + text.length * 2);
