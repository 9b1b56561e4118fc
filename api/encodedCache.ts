import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { JsonCache } from './jsonCache.js';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * Rendered bodies that depend only on their key, kept as sent: plain, and compressed once per
 * encoding a client asked for (brotli and gzip), within the process-wide cache budget. A page of
 * 86 KB is about 10 KB compressed, and compressing it again for every reader would cost more
 * than serving it.
 */
export class EncodedCache {
  private readonly bodies: JsonCache;
  private readonly pending = new Map<string, Promise<Buffer>>();

  /** `name` says what it holds (in metrics). */
  constructor(name: string) {
    this.bodies = new JsonCache(name);
  }

  /** The body in the encoding asked for; `render` runs once for concurrent misses of one key. */
  async get(key: string, encoding: ContentEncoding, render: () => Promise<string>): Promise<Buffer> {
    const encodedKey = `${encoding}:${key}`;
    const hit = this.bodies.peek(encodedKey);
    if (hit) return hit;
    const plain = this.bodies.peek(`identity:${key}`) ?? (await this.rendered(key, render));
    return this.bodies.get(encodedKey, () => encode(plain, encoding));
  }

  private rendered(key: string, render: () => Promise<string>): Promise<Buffer> {
    let running = this.pending.get(key);
    if (!running) {
      running = render()
        .then((body) => this.bodies.get(`identity:${key}`, () => Buffer.from(body)))
        .finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    return running;
  }
}

/** A fixed body in every encoding, made at once (for the few small assets every page names). */
export function encodedOnce(body: string): Record<ContentEncoding, Buffer> {
  const plain = Buffer.from(body);
  return { identity: plain, br: encode(plain, 'br'), gzip: encode(plain, 'gzip') };
}

function encode(plain: Buffer, encoding: ContentEncoding): Buffer {
  if (encoding === 'br') return brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } });
  if (encoding === 'gzip') return gzipSync(plain, { level: 6 });
  return plain;
}
