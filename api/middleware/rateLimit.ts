import type http from 'node:http';
import type Koa from 'koa';
import { rateLimitKey } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { errorBody } from '../errors.js';
import type { RateLimiter, RateLimitState } from '../rateLimits.js';

/** Requests the light reads counted before passing them on to Koa (api/lightReads.ts): counted once. */
export const countedRequests = new WeakMap<http.IncomingMessage, RateLimitState>();

/** Upstream's `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds). */
export function rateLimitHeaders(state: RateLimitState): Array<[string, string]> {
  return [
    ['X-RateLimit-Limit', String(state.limit)],
    ['X-RateLimit-Remaining', String(state.remaining)],
    ['X-RateLimit-Reset', String(Math.ceil(state.resetAt / 1000))],
  ];
}

/**
 * Per-caller request limits with upstream's rate-limit headers on every answer, and 429 with
 * `Retry-After` past the limit.
 */
export function rateLimit(limiter: RateLimiter | undefined) {
  return async (ctx: AppContext, next: Koa.Next) => {
    // A request another node routed here was counted there.
    if (!limiter || ctx.state.routed === true) return next();
    const state = countedRequests.get(ctx.req) ?? limiter.take(await rateLimitKey(ctx.db, ctx.get('Authorization'), ctx.ip));
    for (const [name, value] of rateLimitHeaders(state)) ctx.set(name, value);
    if (state.allowed) return next();
    const waitSeconds = Math.max(1, Math.ceil(state.resetAt / 1000) - Math.floor(Date.now() / 1000));
    ctx.set('Retry-After', String(waitSeconds));
    ctx.status = 429;
    ctx.body = errorBody(429, `Too many requests: ${state.limit} are allowed per ${limiter.limit.windowMs / 1000} s; try again in ${waitSeconds} s`);
  };
}
