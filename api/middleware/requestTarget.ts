import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';

/**
 * Refuses a path or query string that isn't valid percent-encoded UTF-8, or that holds NUL:
 * decoded leniently they would reach lookups and searches altered (U+FFFD) instead of refused.
 */
export async function requestTarget(ctx: AppContext, next: Koa.Next) {
  const problem = requestTargetProblem(ctx.path, ctx.querystring);
  if (problem) throw badRequest(problem);
  return next();
}

/** What is wrong with a request's path and query string, if anything. */
export function requestTargetProblem(path: string, querystring: string): string | undefined {
  for (const [where, text] of [
    ['path', path],
    ['query string', querystring.replace(/\+/g, ' ')],
  ] as const) {
    let decoded = text; // without a `%`, there is nothing to decode (and nothing to fail)
    if (text.includes('%')) {
      try {
        decoded = decodeURIComponent(text);
      } catch {
        return `The ${where} is not valid percent-encoded UTF-8`;
      }
    }
    if (decoded.includes('\u0000')) return `The ${where} holds a NUL character (%00)`;
  }
  return undefined;
}
