import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { errorBody } from '../errors.js';
import { RateLimiter, type RateLimit } from '../rateLimits.js';

/**
 * Per-caller request limits with upstream's `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch
 * seconds) on every answer, and 429 with `Retry-After` past the limit. A caller is their bearer
 * token (hashed: the token itself is never kept), or their address when they send none.
 */
export function rateLimit(limit: RateLimit | undefined) {
  const limiter = limit && new RateLimiter(limit);
  return async (ctx: Koa.Context, next: Koa.Next) => {
    // A request another node routed here was counted there.
    if (!limiter || ctx.state.routed === true) return next();
    const token = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    const caller = token ? `token:${createHash('sha256').update(token).digest('base64url')}` : `address:${ctx.ip}`;
    const state = limiter.take(caller);
    const resetSeconds = Math.ceil(state.resetAt / 1000);
    ctx.set('X-RateLimit-Limit', String(state.limit));
    ctx.set('X-RateLimit-Remaining', String(state.remaining));
    ctx.set('X-RateLimit-Reset', String(resetSeconds));
    if (state.allowed) return next();
    const waitSeconds = Math.max(1, resetSeconds - Math.floor(Date.now() / 1000));
    ctx.set('Retry-After', String(waitSeconds));
    ctx.status = 429;
    ctx.body = errorBody(429, `Too many requests: ${state.limit} are allowed per ${limit!.windowMs / 1000} s; try again in ${waitSeconds} s`);
  };
}
