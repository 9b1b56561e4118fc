import { isMainThread, workerData } from 'node:worker_threads';
/**
 * One memory budget for every content cache of the process (the engine's parsed trees, pages and
 * revisions, pack delta bases, the API's encoded responses): `QUIRE_CACHE_MB`, given at start
 * (configureCacheBudget), 48 MB until then. A worker thread's caches have the same budget of their
 * own: its pool hands it the budget as it starts the thread (`workerData`). When the caches
 * together weigh more, the least recently used entry of any of them goes first.
 */
let cacheBudgetBytes: number = (!isMainThread && (workerData as { cacheBudgetBytes?: number } | undefined)?.cacheBudgetBytes) || 48 * 1024 * 1024;

export function configureCacheBudget(bytes: number): void {
  cacheBudgetBytes = bytes;
  while (usedBytes > cacheBudgetBytes && evictOldest());
}

/** The budget, for the threads a pool starts. */
export const cacheBudget = () => cacheBudgetBytes;

interface Entry<K, V> {
  key: K;
  value: V;
  bytes: number;
  used: number;
  /** Neighbours in this cache's order of use, least recent first. */
  older?: Entry<K, V>;
  newer?: Entry<K, V>;
}

const caches = new Set<BudgetedCache<unknown, unknown>>();
let usedBytes = 0;
let clock = 0;
const reorderAfterUses = 64;

/** The bytes the budgeted caches hold now (estimates: what their entries were weighed at). */
export const cachedBytes = () => usedBytes;

/** What `GET /metrics` reports of the caches: the budget, and each cache's bytes and lookups since start. */
export function cacheStats() {
  const byName = new Map<string, { name: string; bytes: number; hits: number; misses: number }>();
  for (const cache of caches) {
    const stats = byName.get(cache.name) ?? { name: cache.name, bytes: 0, hits: 0, misses: 0 };
    byName.set(cache.name, { name: cache.name, bytes: stats.bytes + cache.heldBytes(), hits: stats.hits + cache.hits, misses: stats.misses + cache.misses });
  }
  return { budgetBytes: cacheBudgetBytes, usedBytes, caches: [...byName.values()] };
}

/**
 * A least-recently-used cache whose entries count against the process-wide budget. Its order of
 * use is a linked list, not a Map's insertion order: evicting a Map's first entry again and again
 * leaves deleted slots that each later lookup of the first entry walks past (quadratic when a
 * large space's pages stream through a full budget).
 */
export class BudgetedCache<K, V> {
  private readonly entries = new Map<K, Entry<K, V>>();
  private readonly loading = new Map<K, Promise<V>>();
  private oldest?: Entry<K, V>;
  private newest?: Entry<K, V>;
  private bytes = 0;
  hits = 0;
  misses = 0;

  /** `name` says what it holds (in metrics); `weigh` estimates an entry's memory in bytes (its key included); `capBytes` bounds this cache alone, within the budget. */
  constructor(
    readonly name: string,
    private readonly weigh: (value: V, key: K) => number,
    private readonly capBytes = Infinity,
  ) {
    caches.add(this as BudgetedCache<unknown, unknown>);
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // Moved to the end of this cache's order unless it was used a moment ago (it is near the end
    // then): a hot entry asked for on every request costs a lookup, not an unlink and a link.
    if (clock - entry.used > reorderAfterUses) {
      this.unlink(entry);
      this.link(entry);
    }
    entry.used = ++clock;
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.weigh(value, key);
    if (bytes > Math.min(cacheBudgetBytes, this.capBytes)) return; // larger than the whole budget: not kept at all
    const entry: Entry<K, V> = { key, value, bytes, used: ++clock };
    this.entries.set(key, entry);
    this.link(entry);
    usedBytes += bytes;
    this.bytes += bytes;
    while (this.bytes > this.capBytes) this.evictOne();
    while (usedBytes > cacheBudgetBytes && evictOldest());
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.unlink(entry);
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

  heldBytes(): number {
    return this.bytes;
  }

  /** When this cache's least recently used entry was last used (Infinity when empty). */
  oldestUse(): number {
    return this.oldest?.used ?? Infinity;
  }

  evictOne(): void {
    if (this.oldest) this.delete(this.oldest.key);
  }

  private link(entry: Entry<K, V>): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
  }
}

function evictOldest(): boolean {
  let oldest: BudgetedCache<unknown, unknown> | undefined;
  for (const cache of caches) if (cache.oldestUse() < (oldest?.oldestUse() ?? Infinity)) oldest = cache;
  oldest?.evictOne();
  return oldest !== undefined;
}

/**
 * The bytes in memory of their own, for a cache to keep: a small Buffer (under 4 KB, made by
 * `Buffer.from` or sliced from zlib's output) is a view into a shared 8 KB slab, which it keeps
 * whole for as long as it lives. Kept in a cache weighed by its length, each such view held up to
 * 8 KB: a 4-minute soak left 5,013 slabs (41 MB) reachable, and resident memory grew with them.
 */
export function ownedBytes(bytes: Uint8Array): Buffer {
  if (Buffer.isBuffer(bytes) && bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  own.set(bytes);
  return own;
}

/** Rough bytes of a string held in memory (UTF-16 at worst, plus the object). */
export const stringBytes = (text: string | undefined) => (text === undefined ? 0 : 40 + text.length * 2);
