/**
 * Serialized JSON of responses that depend only on immutable things (a commit's revision, one of
 * its pages), kept up to a byte budget, least recently used first out. A warm read of a
 * 1,000-page revision is then a lookup and a write, not 2 MB of JSON.stringify.
 */
export class JsonCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly budgetBytes: number) {}

  /** The JSON as UTF-8 bytes, encoded once: Koa writes a Buffer body as it is. `build` may return it serialized (or encoded) already. */
  get(key: string, build: () => unknown): Buffer {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const built = build();
    const json = Buffer.isBuffer(built) ? built : Buffer.from(typeof built === 'string' ? built : JSON.stringify(built));
    this.entries.set(key, json);
    this.bytes += json.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.budgetBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
    return json;
  }
}
