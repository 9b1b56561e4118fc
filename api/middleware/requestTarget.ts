import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';

/**
 * Refuses a path or query string that isn't valid percent-encoded UTF-8, or that holds NUL:
 * decoded leniently they would reach lookups and searches altered (U+FFFD) instead of refused.
 */
export async function requestTarget(ctx: AppContext, next: Koa.Next) {
  for (const [where, text] of [
    ['path', ctx.path],
    ['query string', ctx.querystring.replace(/\+/g, ' ')],
  ] as const) {
    let decoded = text; // without a `%`, there is nothing to decode (and nothing to fail)
    if (text.includes('%')) {
      try {
        decoded = decodeURIComponent(text);
      } catch {
        throw badRequest(`The ${where} is not valid percent-encoded UTF-8`);
      }
    }
    if (decoded.includes('\u0000')) throw badRequest(`The ${where} holds a NUL character (%00)`);
  }
  return next();
}
