import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs file download URLs, so an `<img src>` or a PDF renderer can fetch them without an
 * Authorization header. A signature covers the path and an expiry; expiries fall on window
 * boundaries (`windowMs`), so every URL made within one window is the same and the JSON that
 * holds it can be cached for the window. A URL stays valid for one to two windows.
 */
export class DownloadSigner {
  constructor(
    private readonly key: Buffer,
    readonly windowMs: number,
  ) {}

  /** The current window's number: part of the cache key of anything holding signed URLs. */
  window(now = Date.now()): number {
    return Math.floor(now / this.windowMs);
  }

  /** The query string that makes `apiPath` downloadable without a token until the end of the next window. */
  sign(apiPath: string, now = Date.now()): string {
    const expires = Math.floor(((this.window(now) + 2) * this.windowMs) / 1000);
    return `expires=${expires}&signature=${this.signature(apiPath, expires)}`;
  }

  verify(apiPath: string, expires: string, signature: string, now = Date.now()): 'valid' | 'expired' | 'invalid' {
    if (!/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.signature(apiPath, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 <= now ? 'expired' : 'valid';
  }

  private signature(apiPath: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${apiPath}\n${expires}`).digest('base64url');
  }
}
