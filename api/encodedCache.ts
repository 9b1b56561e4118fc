import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
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
  /** Renders and compressions under way, by key: concurrent misses share one. */
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
    const plain = this.bodies.peek(`identity:${key}`) ?? (await this.once(`identity:${key}`, async () => Buffer.from(await render())));
    if (encoding === 'identity') return plain;
    return this.once(encodedKey, () => encodeAsync(plain, encoding));
  }

  private once(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    let running = this.pending.get(key);
    if (!running) {
      running = make()
        .then((body) => this.bodies.get(key, () => body))
        .finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    return running;
  }
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compressed on libuv's threads: a page of megabytes never holds the event loop while it is. */
function encodeAsync(plain: Buffer, encoding: Exclude<ContentEncoding, 'identity'>): Promise<Buffer> {
  if (encoding === 'br') return brotliAsync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } });
  return gzipAsync(plain, { level: 6 });
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
