import type Koa from 'koa';

/** For the HTML Quire serves itself: no scripts, no remote resources, no framing, no forms. */
export const htmlContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What a cache may do with an answer a caller's credentials unlocked, unless its route says otherwise. */
export const credentialedCaching = 'no-store';

/**
 * Headers every answer carries, errors included: `nosniff` so a browser never reads a body as
 * another type than the one sent; `no-store` on what a caller's credentials unlocked (unless the
 * route chose its own caching, as immutable downloads do); a strict CSP on HTML that
 * set none of its own (the published sites set theirs).
 */
export async function securityHeaders(ctx: Koa.Context, next: Koa.Next) {
  try {
    await next();
  } finally {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.get('Authorization') && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', credentialedCaching);
    // The type read as a header, not through type-is (a media-type parse on every answer).
    if (/^\s*text\/html\b/i.test(String(ctx.response.get('Content-Type'))) && !ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', htmlContentSecurityPolicy);
  }
}
