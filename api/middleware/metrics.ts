import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { credentialsOf } from '../auth/index.js';
import { prometheusText, type EventLoopDelay } from '../metrics.js';

/**
 * `GET /metrics`: the process's health figures for Prometheus, to a scraper on this machine or
 * one that sends `QUIRE_METRICS_TOKEN` as its bearer token; to anyone else (a site's custom host
 * included) it is a path like any other. "On this machine": the connection comes from loopback,
 * names a loopback host, and carries no forwarding header (a reverse proxy beside Quire sets one:
 * Caddy does by default; with nginx, `proxy_set_header X-Forwarded-For`).
 */
export function metricsEndpoint(delay: EventLoopDelay, token: string | undefined) {
  const expected = token === undefined ? undefined : Buffer.from(token);
  return async (ctx: Koa.Context, next: Koa.Next) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (!mayScrape(ctx, expected)) return next();
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = prometheusText(delay);
  };
}

const loopbackAddresses = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const loopbackHosts = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function mayScrape(ctx: Koa.Context, expected: Buffer | undefined): boolean {
  if (expected) {
    const credentials = credentialsOf(ctx.get('authorization'));
    const given = credentials.kind === 'user token' ? Buffer.from(credentials.token) : undefined;
    if (given && given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  const forwarded = ctx.get('forwarded') || ctx.get('x-forwarded-for') || ctx.get('x-real-ip');
  return loopbackAddresses.test(ctx.req.socket.remoteAddress ?? '') && !forwarded && loopbackHosts.has(ctx.hostname);
}
