import { BudgetedCache, ownedBytes } from '../engine/index.js';

/**
 * Serialized JSON of responses that depend only on immutable things (a commit's revision, one of
 * its pages), within the process-wide cache budget (`QUIRE_CACHE_MB`, shared with the engine's
 * caches), least recently used first out. A warm read of a 1,000-page revision is then a lookup
 * and a write, not 2 MB of JSON.stringify.
 */
export class JsonCache {
  private readonly entries: BudgetedCache<string, Buffer>;

  /** `name` says what it holds (in metrics); `capBytes` bounds this cache alone; all of them together stay within the process-wide budget. */
  constructor(name: string, capBytes?: number) {
    this.entries = new BudgetedCache(name, (json: Buffer, key: string) => json.length + key.length * 2 + 100, capBytes);
  }

  /** The cached JSON, if any: for a caller with reads to do before it can build. */
  peek(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  /** The JSON as UTF-8 bytes, encoded once: Koa writes a Buffer body as it is. `build` may return it serialized (or encoded) already. */
  get(key: string, build: () => unknown): Buffer {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const built = build();
    const json = ownedBytes(Buffer.isBuffer(built) ? built : Buffer.from(typeof built === 'string' ? built : JSON.stringify(built)));
    this.entries.set(key, json);
    return json;
  }
}

/** A value as JSON bytes of their own: a small Buffer.from is a view that would keep a whole 8 KB slab alive with whatever holds it. */
export function encodeJson(value: unknown): Buffer {
  return ownedBytes(Buffer.from(JSON.stringify(value)));
}
